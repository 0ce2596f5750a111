public class Bad {
  void f( { int x = ; }
