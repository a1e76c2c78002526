// generate_cuda_source and the generator's kernels (cuda_source_impl.h):
// the translation unit around the kernel, the index arithmetic, and the
// pointwise and row kernels' loops; the expressions they evaluate are in
// cuda_source_exprs.cpp, the spelling of scalars in cuda_scalar_text.cpp.
#include "codegen_cuda/cuda_source.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "codegen_cuda/cuda_prelude.h"
#include "codegen_cuda/cuda_scalar_text.h"
#include "codegen_cuda/cuda_source_impl.h"
#include "codegen_cuda/kernel_args.h"
#include "core/error.h"
#include "core/stable_hash.h"

namespace lz::codegen_cuda {

namespace detail {

CudaSource Generator::run() {
  std::ostringstream body;
  row_ = !k_.reductions.empty();
  if (row_) {
    emit_row_kernel(body);
  } else {
    emit_pointwise_kernel(body);
  }
  std::ostringstream args;
  args << "  lz_i64 size[" << layout_.rank_slots << "];\n"
       << "  lz_i64 stride[" << layout_.num_accesses * layout_.rank_slots << "];\n"
       << "  char* data[" << layout_.num_accesses << "];\n"
       << "  double fparam[" << layout_.param_slots << "];\n"
       << "  lz_i64 iparam[" << layout_.param_slots << "];\n"
       << "  lz_i64 pfloat[" << layout_.param_slots << "];\n";
  const std::string text = body.str(), fields = args.str();
  CudaSource out;
  out.row_kernel = row_;
  char hash[24];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(stable_hash(fields + text)));
  out.entry = "lzk_" + std::string(hash);
  std::ostringstream code;
  code << cuda_prelude() << "\n// kernel " << k_.name << "\n";
  code << "struct " << out.entry << "_args {\n" << fields << "};\n";
  code << "extern \"C\" __global__ void " << out.entry << "(const " << out.entry << "_args a) {\n"
       << text << "}\n";
  out.code = code.str();
  return out;
}

std::string Generator::stride(uint32_t access, uint32_t axis) const {
  return "a.stride[" + std::to_string(access * layout_.rank_slots + axis) + "]";
}
std::string Generator::size(uint32_t axis) { return "a.size[" + std::to_string(axis) + "]"; }

std::vector<uint32_t> Generator::axes(bool reduced) const {
  std::vector<uint32_t> v;
  for (uint32_t d = 0; d < k_.rank; ++d) {
    if ((((k_.reduce_axes >> d) & 1) != 0) == reduced) v.push_back(d);
  }
  return v;
}

// Declares the coordinates along `dims` of the flat index `flat` (last
// axis fastest) and, for each access in `accesses`, its offset `<off><a>`
// (`<init><a>` plus the offset along dims).
void Generator::decompose(std::ostream& o, const std::string& indent, const std::string& flat,
                          const std::vector<uint32_t>& dims, const std::vector<bool>& accesses, const std::string& off,
                          const std::string& init) const {
  if (!dims.empty()) o << indent << "lz_i64 rem_" << off << " = " << flat << ";\n";
  for (size_t i = dims.size(); i-- > 0;) {
    const uint32_t d = dims[i];
    o << indent << "const lz_i64 c" << off << d << " = rem_" << off << " % " << size(d);
    if (i > 0) o << "; rem_" << off << " /= " << size(d);
    o << ";\n";
  }
  for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
    if (!accesses[a]) continue;
    o << indent << "const lz_i64 " << off << a << " = " << (init.empty() ? "0" : init + std::to_string(a));
    for (uint32_t d : dims) o << " + c" << off << d << " * " << stride(a, d);
    o << ";\n";
  }
}

// The accesses the expressions in `used` load, plus `store_access` (if any).
std::vector<bool> Generator::accesses_of(const std::vector<bool>& used, int64_t store_access) const {
  std::vector<bool> a(k_.accesses.size(), false);
  for (ExprId i = 0; i < k_.exprs.size(); ++i) {
    if (used[i] && k_.exprs[i].op == ScalarOp::Load) a[k_.exprs[i].index] = true;
  }
  if (store_access >= 0) a[static_cast<size_t>(store_access)] = true;
  return a;
}

std::string Generator::flat_count(const std::vector<uint32_t>& dims) const {
  std::string s = "(lz_i64)1";
  for (uint32_t d : dims) s += " * " + size(d);
  return s;
}

// Declares `dense`: every access either walks the domain in row-major
// order (dense_c<a>) or reads a single element (dense_z<a>), so a point's
// offset is its flat index or 0, with no division per axis.
void Generator::emit_dense_check(std::ostream& o, const std::vector<bool>& accesses) const {
  o << "  lz_i64 dense_stride = 1;\n";
  for (uint32_t a = 0; a < accesses.size(); ++a) {
    if (accesses[a]) o << "  bool dense_c" << a << " = true, dense_z" << a << " = true;\n";
  }
  for (uint32_t d = k_.rank; d-- > 0;) {
    for (uint32_t a = 0; a < accesses.size(); ++a) {
      if (!accesses[a]) continue;
      o << "  dense_c" << a << " = dense_c" << a << " && (" << size(d) << " == 1 || " << stride(a, d)
        << " == dense_stride);\n";
      o << "  dense_z" << a << " = dense_z" << a << " && (" << size(d) << " == 1 || " << stride(a, d)
        << " == 0);\n";
    }
    o << "  dense_stride *= " << size(d) << ";\n";
  }
  o << "  const bool dense = true";
  for (uint32_t a = 0; a < accesses.size(); ++a) {
    if (accesses[a]) o << " && (dense_c" << a << " || dense_z" << a << ")";
  }
  o << ";\n";
}

// One point of the dense path: offsets are the flat index p or 0.
void Generator::emit_dense_point(std::ostream& o, const std::string& indent, const std::vector<bool>& used,
                                 const std::vector<bool>& accesses) {
  for (uint32_t a = 0; a < accesses.size(); ++a) {
    if (accesses[a]) o << indent << "const lz_i64 o" << a << " = dense_c" << a << " ? p : (lz_i64)0;\n";
  }
  emit_exprs(o, indent, used, "o");
  for (const ir::Store& s : k_.stores) store(o, indent, s, "o");
}

// The dense path with every dense access aligned to a vector of
// kVectorLanes elements: each thread loads its lanes of every input with
// one vector load (a single element is broadcast), computes the lanes in
// registers and writes each output with one vector store; the last
// total % kVectorLanes points go point by point.
void Generator::emit_vector_path(std::ostream& o, const std::vector<bool>& used, const std::vector<bool>& loaded,
                                 const std::vector<bool>& accesses) {
  o << "  bool aligned = true;\n";
  for (uint32_t a = 0; a < accesses.size(); ++a) {
    if (!accesses[a]) continue;
    o << "  aligned = aligned && (!dense_c" << a << " || (lz_u64)a.data[" << a << "] % sizeof(" << vector_type(a)
      << ") == 0);\n";
  }
  o << "  if (aligned) {\n";
  o << "    const lz_i64 groups = total / " << kVectorLanes << ";\n";
  o << "    for (lz_i64 g = (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += (lz_i64)gridDim.x * "
       "blockDim.x) {\n";
  o << "      const lz_i64 base = g * " << kVectorLanes << ";\n";
  for (uint32_t a = 0; a < loaded.size(); ++a) {
    if (!loaded[a]) continue;
    const std::string t = storage_type(buffer_dtype(a)), v = "lzv" + std::to_string(a);
    const std::string ptr = "((const " + t + "*)a.data[" + std::to_string(a) + "])";
    o << "      " << vector_type(a) << " " << v << ";\n";
    o << "      if (dense_c" << a << ") { " << v << " = *(const " << vector_type(a) << "*)(" << ptr
      << " + base); } else { for (int l = 0; l < " << kVectorLanes << "; ++l) " << v << ".x[l] = " << ptr
      << "[0]; }\n";
  }
  for (const ir::Store& st : k_.stores) o << "      " << vector_type(st.access) << " lzw" << st.access << ";\n";
  o << "      for (int lane = 0; lane < " << kVectorLanes << "; ++lane) {\n";
  lane_ = "lane";
  emit_exprs(o, "        ", used, "o");
  for (const ir::Store& st : k_.stores) store(o, "        ", st, "o");
  lane_.clear();
  o << "      }\n";
  for (const ir::Store& st : k_.stores) {
    const std::string t = storage_type(buffer_dtype(st.access)), w = "lzw" + std::to_string(st.access);
    const std::string ptr = "((" + t + "*)a.data[" + std::to_string(st.access) + "])";
    o << "      if (dense_c" << st.access << ") { *(" << vector_type(st.access) << "*)(" << ptr << " + base) = " << w
      << "; } else { " << ptr << "[0] = " << w << ".x[" << kVectorLanes - 1 << "]; }\n";
  }
  o << "    }\n";
  o << "    for (lz_i64 p = groups * " << kVectorLanes << " + (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; "
       "p < total; p += (lz_i64)gridDim.x * blockDim.x) {\n";
  emit_dense_point(o, "      ", used, accesses);
  o << "    }\n    return;\n  }\n";
}

void Generator::emit_pointwise_kernel(std::ostream& o) {
  std::vector<uint32_t> all;
  for (uint32_t d = 0; d < k_.rank; ++d) all.push_back(d);
  std::vector<bool> used(k_.exprs.size(), false);
  for (const ir::Store& s : k_.stores) need(s.value, used);
  o << "  const lz_i64 inner_total = 1;\n  (void)inner_total;\n";
  o << "  const lz_i64 total = " << flat_count(all) << ";\n";
  const std::vector<bool> loaded = accesses_of(used, -1);
  std::vector<bool> accesses = loaded;
  for (const ir::Store& st : k_.stores) accesses[st.access] = true;
  emit_dense_check(o, accesses);
  const char* loop =
      "for (lz_i64 p = (lz_i64)blockIdx.x * blockDim.x + threadIdx.x; p < total; p += (lz_i64)gridDim.x * "
      "blockDim.x) {\n";
  o << "  if (dense) {\n";
  emit_vector_path(o, used, loaded, accesses);
  o << "    " << loop;
  emit_dense_point(o, "      ", used, accesses);
  o << "    }\n    return;\n  }\n";
  o << "  " << loop;
  decompose(o, "    ", "p", all, accesses, "o", "");
  emit_exprs(o, "    ", used, "o");
  for (const ir::Store& s : k_.stores) store(o, "    ", s, "o");
  o << "  }\n";
}

void Generator::emit_row_kernel(std::ostream& o) {
  const std::vector<uint32_t> outer = axes(false), inner = axes(true);
  bool any_float = false, any_int = false;
  for (const ir::Reduction& r : k_.reductions) (is_float_type(r.dtype) ? any_float : any_int) = true;
  if (any_float) o << "  __shared__ double slots_d[32];\n";
  if (any_int) o << "  __shared__ lz_i64 slots_i[32];\n";
  o << "  const lz_i64 outer_total = " << flat_count(outer) << ";\n";
  o << "  const lz_i64 inner_total = " << flat_count(inner) << ";\n";
  o << "  for (lz_i64 q = blockIdx.x; q < outer_total; q += gridDim.x) {\n";
  decompose(o, "    ", "q", outer, std::vector<bool>(k_.accesses.size(), true), "b", "");
  for (const ir::Stage& st : k_.stages) {
    if (st.kind == ir::Stage::Kind::Reduce) {
      emit_reduce_stage(o, st.index, inner);
    } else {
      emit_store_stage(o, k_.stores[st.index], inner);
    }
  }
  o << "  }\n";
}

void Generator::emit_reduce_stage(std::ostream& o, uint32_t r, const std::vector<uint32_t>& inner) {
  const ir::Reduction& red = k_.reductions[r];
  const bool fp = is_float_type(red.dtype);
  // Floating reductions accumulate in double (as the interpreter does),
  // integers in 64 bits, wrapped to the dtype at the end.
  const ScalarType acc_t = fp ? ScalarType::Double : ScalarType::Long;
  const std::string acc = "acc" + std::to_string(r), code = reduce_code(red.op);
  o << "    " << compute_type(acc_t) << " " << acc << " = " << identity(red, acc_t) << ";\n";
  o << "    for (lz_i64 i = threadIdx.x; i < inner_total; i += blockDim.x) {\n";
  std::vector<bool> used(k_.exprs.size(), false);
  need(red.input, used);
  decompose(o, "      ", "i", inner, accesses_of(used, -1), "o", "b");
  emit_exprs(o, "      ", used, "o");
  o << "      " << acc << " = lz_combine<" << code << ">(" << acc << ", "
    << convert(convert("e" + std::to_string(red.input), k_.exprs[red.input].dtype, red.dtype), red.dtype, acc_t)
    << ");\n";
  o << "    }\n";
  o << "    const " << compute_type(red.dtype) << " red" << r << " = "
    << convert("lz_block_reduce<" + code + ">(" + acc + (fp ? ", slots_d)" : ", slots_i)"), acc_t, red.dtype)
    << ";\n";
}

std::string Generator::identity(const ir::Reduction& red, ScalarType acc_t) const {
  if (acc_t == ScalarType::Double) {
    switch (red.op) {
      case ir::ReduceOp::Prod: return "1.0";
      case ir::ReduceOp::Max: return "(-lz_inf())";
      case ir::ReduceOp::Min: return "lz_inf()";
      default: return "0.0";
    }
  }
  switch (red.op) {
    case ir::ReduceOp::Prod: case ir::ReduceOp::All: return "(lz_i64)1";
    case ir::ReduceOp::Max: return int_literal(integral_range(red.dtype).min);
    case ir::ReduceOp::Min: return int_literal(integral_range(red.dtype).max);
    default: return "(lz_i64)0";
  }
}

void Generator::emit_store_stage(std::ostream& o, const ir::Store& s, const std::vector<uint32_t>& inner) {
  std::vector<bool> used(k_.exprs.size(), false);
  need(s.value, used);
  if (s.reduced) {
    // One value per row, written by thread 0 at inner point 0 (the access
    // has extent 1 along the reduction axes).
    o << "    if (threadIdx.x == 0) {\n";
    const std::vector<bool> accesses = accesses_of(used, s.access);
    for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
      if (accesses[a]) o << "      const lz_i64 o" << a << " = b" << a << ";\n";
    }
    emit_exprs(o, "      ", used, "o");
    store(o, "      ", s, "o");
    o << "    }\n";
    return;
  }
  o << "    for (lz_i64 i = threadIdx.x; i < inner_total; i += blockDim.x) {\n";
  decompose(o, "      ", "i", inner, accesses_of(used, s.access), "o", "b");
  emit_exprs(o, "      ", used, "o");
  store(o, "      ", s, "o");
  o << "    }\n";
}

}  // namespace detail

CudaSource generate_cuda_source(const ir::Kernel& k) {
  // Gathers need the fault report of the CPU launch (kernel_abi.h), pieces
  // the CPU launch's boxes (lazy/launch_pieces.cpp); not written for CUDA yet.
  for (const ir::Expr& e : k.exprs) {
    LZ_CHECK(e.op != ir::ScalarOp::Gather, NotImplementedError, "[codegen_cuda] kernel ", k.name,
             ": no CUDA form for gather");
  }
  LZ_CHECK(k.pieces.empty(), NotImplementedError, "[codegen_cuda] kernel ", k.name,
           ": no CUDA form for pieces (a concatenation of unequal parts, a padding)");
  return detail::Generator(k).run();
}

std::string combined_source(std::span<const CudaSource> sources) {
  const std::string_view prelude = cuda_prelude();
  std::string out(prelude);
  std::vector<std::string_view> seen;
  for (const CudaSource& s : sources) {
    if (std::find(seen.begin(), seen.end(), s.entry) != seen.end()) continue;
    seen.push_back(s.entry);
    LZ_INTERNAL_ASSERT(s.code.compare(0, prelude.size(), prelude) == 0, "kernel ", s.entry, " lacks the prelude");
    out.append(s.code, prelude.size());
  }
  return out;
}

}  // namespace lz::codegen_cuda
