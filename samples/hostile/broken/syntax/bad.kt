fun main( {
  val x = 
