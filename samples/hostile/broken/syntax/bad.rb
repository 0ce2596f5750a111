def broken(
  x = 
end end end
class <
