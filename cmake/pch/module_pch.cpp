// Compiles nothing: the target of this file (lz_module_pch) builds the
// precompiled header that Lazuli's modules share (cmake/LazuliModule.cmake).
