fn main( {
  let x = ;
