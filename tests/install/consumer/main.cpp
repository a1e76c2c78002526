// Uses only the installed public header; exits non-zero on a wrong answer.
#include <iostream>

#include <lazuli/lazuli.h>

int main() {
  lz::Tensor x = lz::arange(6, lz::kFloat32).reshape({2, 3});
  lz::Tensor y = (x * 2 + 1).sum({1});
  std::cout << y << "\n";
  return lz::equal(y, lz::tensor({9.0f, 27.0f})) ? 0 : 1;
}
