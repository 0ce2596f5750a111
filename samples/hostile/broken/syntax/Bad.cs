class Bad {
  void F( { var x = ; }
