# The repository's source folders (modules, tools and benchmarks), read by
# what walks the sources: the layering check (Layering.cmake,
# check_layering.cmake) and tests/check_file_lengths.cmake.
set(lz_source_modules core eager_kernels ir passes codegen_llvm codegen_cuda codegen_interp lazy autograd cuda_operators
    tools bench)
