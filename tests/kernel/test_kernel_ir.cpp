// Kernel IR: names, KernelBuilder, verify_kernel (one case per rule) and the
// printed text form.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/error.h"
#include "tests/kernel/kernel_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::kernel_testing;

namespace {

// CHECKs that verify_kernel reports a problem containing `what`.
void check_rejects(const Kernel& k, const std::string& what) {
  const std::string msg = verify_kernel(k);
  INFO("verify_kernel: " << msg);
  CHECK(msg.find(what) != std::string::npos);
}

}  // namespace

TEST_CASE("kernel ir: names and arities", "[kernel]") {
  CHECK(to_string(ScalarOp::Load) == "load");
  CHECK(to_string(ScalarOp::ReduceCount) == "reduce_count");
  CHECK(to_string(ScalarOp::FloorDiv) == "floor_div");
  CHECK(to_string(ScalarOp::BitwiseXor) == "bitwise_xor");
  CHECK(to_string(ScalarOp::Select) == "select");
  CHECK(to_string(static_cast<ScalarOp>(250)) == "?");
  CHECK(arity(ScalarOp::Reduced) == 0);
  CHECK(arity(ScalarOp::Neg) == 1);
  CHECK(arity(ScalarOp::IsInf) == 1);
  CHECK(arity(ScalarOp::Cast) == 1);
  CHECK(arity(ScalarOp::Add) == 2);
  CHECK(arity(ScalarOp::BitwiseXor) == 2);
  CHECK(arity(ScalarOp::Select) == 3);
  CHECK(arity(static_cast<ScalarOp>(250)) == -1);
  CHECK(to_string(ViewStep::Kind::ExpandTo) == "expand_to");
  CHECK(to_string(ViewStep::Kind::AsStrided) == "as_strided");
  CHECK(to_string(ViewStep::Kind::Chunk) == "chunk");
  CHECK(to_string(ReduceOp::Prod) == "prod");
  CHECK(to_string(ReduceOp::Any) == "any");
}

TEST_CASE("kernel ir: the scalar operation traits", "[kernel]") {
  std::set<std::string_view> names;
  for (size_t i = 0; i < kNumScalarOps; ++i) {
    const ScalarOp op = static_cast<ScalarOp>(i);
    INFO(to_string(op));
    CHECK(names.insert(to_string(op)).second);  // printed names are unique
    CHECK((arity(op) >= 0 && arity(op) <= 3));
    CHECK(cost(op) >= 1);
  }
  CHECK_FALSE(is_valid(static_cast<ScalarOp>(kNumScalarOps)));
  CHECK_THROWS_AS(traits(static_cast<ScalarOp>(kNumScalarOps)), InternalError);
  CHECK(traits(ScalarOp::Exp).domain == ScalarOpDomain::Floating);
  CHECK(traits(ScalarOp::BitwiseAnd).domain == ScalarOpDomain::Integral);
  CHECK(traits(ScalarOp::Add).domain == ScalarOpDomain::Any);
  CHECK(traits(ScalarOp::Sigmoid).cost == ScalarOpCost::Transcendental);
  CHECK(cost(ScalarOp::Div) == 2);
  CHECK(cost(ScalarOp::Sqrt) == 4);
  CHECK(cost(ScalarOp::Mul) == 1);
}

TEST_CASE("kernel ir: the builder deduplicates and appends stages", "[kernel]") {
  Kernel k;
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t in = b.add_buffer(kFloat, 1, false);
  const uint32_t a0 = b.add_access({in, {}});
  CHECK(b.add_access({in, {}}) == a0);
  const uint32_t a1 = b.add_access({in, {{ViewStep::Kind::Permute, {0}}}});
  CHECK(a1 != a0);
  const ExprId x = b.load(a0, kFloat);
  CHECK(b.load(a0, kFloat) == x);
  CHECK(b.load(a0, kDouble) != x);
  const ExprId c = b.constant(2.0, kFloat);
  CHECK(b.constant(2.0, kFloat) == c);
  CHECK(b.constant(2.5, kFloat) != c);
  CHECK(k.exprs[b.constant(3.7, kInt)].iconstant == 3);
  CHECK(k.exprs[b.constant(-0.5, kBool)].iconstant == 1);
  const ExprId y = b.binary(ScalarOp::Mul, x, c, kFloat);
  CHECK(b.binary(ScalarOp::Mul, x, c, kFloat) == y);
  CHECK(b.binary(ScalarOp::Mul, c, x, kFloat) != y);
  CHECK(b.cast(y, kFloat) == y);
  const ExprId yd = b.cast(y, kDouble);
  CHECK(k.exprs[yd].op == ScalarOp::Cast);
  CHECK(b.param(2, kFloat) == b.param(2, kFloat));
  CHECK(k.num_params == 3);

  const uint32_t r = b.add_reduction(ReduceOp::Sum, y, kFloat);
  CHECK(k.stages.back().kind == Stage::Kind::Reduce);
  CHECK(k.exprs[b.reduced(r)].dtype == kFloat);
  const uint32_t out = b.add_buffer(kFloat, 1, true);
  const uint32_t s = b.add_store(b.add_access({out, {}}), b.reduced(r), true);
  CHECK(k.stages.back().kind == Stage::Kind::Store);
  CHECK(k.stages.back().index == s);
  CHECK(k.stages.size() == 2);
  k.num_params = 3;
  CHECK(verify_kernel(k) == "");
}

TEST_CASE("kernel ir: verify accepts well-formed kernels", "[kernel]") {
  CHECK(verify_kernel(softmax_kernel()) == "");
  CHECK(verify_kernel(binary_kernel(ScalarOp::Add, kInt, 3)) == "");
  CHECK(verify_kernel(binary_kernel(ScalarOp::Lt, kFloat, 1, kBool)) == "");
  CHECK(verify_kernel(Kernel{}) == "");

  // An output loaded (through the access it was stored with) after its store.
  Kernel k;
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a = b.add_access({b.add_buffer(kFloat, 1, true), {}});
  b.add_store(a, b.constant(1, kFloat), false);
  const uint32_t o2 = b.add_access({b.add_buffer(kFloat, 1, true), {}});
  b.add_store(o2, b.unary(ScalarOp::Neg, b.load(a, kFloat), kFloat), false);
  CHECK(verify_kernel(k) == "");

  // Views whose rank the IR determines reach the domain's rank.
  Kernel v;
  v.rank = 2;
  v.num_shape_refs = 1;
  KernelBuilder bv(&v);
  const uint32_t in = bv.add_buffer(kFloat, 1, false);
  const uint32_t va = bv.add_access({in, {{ViewStep::Kind::Unsqueeze, {0}}, {ViewStep::Kind::ExpandTo, {0}}}});
  const uint32_t vb = bv.add_access({in, {{ViewStep::Kind::Reshape, {2, -1}}, {ViewStep::Kind::Permute, {1, 0}},
                                          {ViewStep::Kind::Slice, {0, 1, ViewStep::kNoBound, 2}}}});
  const uint32_t vo = bv.add_access({bv.add_buffer(kFloat, 2, true), {}});
  const ExprId lva = bv.load(va, kFloat);
  const ExprId lvb = bv.load(vb, kFloat);
  bv.add_store(vo, bv.binary(ScalarOp::Add, lva, lvb, kFloat), false);
  CHECK(verify_kernel(v) == "");
}

TEST_CASE("kernel ir: verify rejects a bad domain and bad accesses", "[kernel]") {
  Kernel k = softmax_kernel();
  k.rank = 65;
  check_rejects(k, "domain rank 65 is over 64");
  k = softmax_kernel();
  k.reduce_axes = 1u << 2;
  check_rejects(k, "reduce_axes names an axis >= the domain rank 2");
  k = softmax_kernel();
  k.domain_shape = 1;
  check_rejects(k, "domain_shape s1");
  k = softmax_kernel();
  k.accesses[0].buffer = 7;
  check_rejects(k, "a0: buffer 7 out of range");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Permute, {0}}};
  check_rejects(k, "a0: view step 0 (permute): needs one dim per axis");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Select, {0, 1}}};
  check_rejects(k, "a0: aligned rank 1 != domain rank 2");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::ExpandTo, {0}}};
  check_rejects(k, "expand_to): needs one shape ref in range");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Slice, {0, 0, 2, 0}}};
  check_rejects(k, "step must be positive");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Reshape, {-1, -1}}};
  check_rejects(k, "more than one -1");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::AsStrided, {2, 3, 4, 4, 1}}};
  check_rejects(k, "needs n, sizes[n], strides[n], offset");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Chunk, {1, 2}}};
  check_rejects(k, "a0: view step 0 (chunk): needs dim, count, index");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Chunk, {1, 2, 2}}};
  check_rejects(k, "chunk): index out of range of count");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Chunk, {2, 2, 0}}};
  check_rejects(k, "chunk): dim out of range");
  k = softmax_kernel();
  k.accesses[0].views = {{ViewStep::Kind::Chunk, {-1, 3, 2}}};
  CHECK(verify_kernel(k) == "");
}

TEST_CASE("kernel ir: verify rejects bad expressions", "[kernel]") {
  Kernel k = softmax_kernel();
  k.exprs[2].operands[1] = 4;  // e2 = sub e0, e4
  check_rejects(k, "e2: operand e4 is defined later");
  k = softmax_kernel();
  k.exprs[2].operands[0] = 2;  // uses itself
  check_rejects(k, "e2: operand e2 is defined later");
  k = softmax_kernel();
  k.exprs[3].op = static_cast<ScalarOp>(200);
  check_rejects(k, "e3: unknown op 200");
  k = softmax_kernel();
  k.exprs[0].index = 9;
  check_rejects(k, "e0: load of a9 out of range");
  k = softmax_kernel();
  k.exprs[1].index = 5;
  check_rejects(k, "e1: reduced r5 out of range");
  k = softmax_kernel();
  k.exprs[1].dtype = kDouble;
  check_rejects(k, "e1: reduced r0 has dtype f32");
  k = softmax_kernel();
  k.exprs[3].dtype = kHalf;
  check_rejects(k, "e3: f16 is not a compute dtype");
  k = softmax_kernel();
  k.exprs[0].dtype = kDouble;  // e2 = sub of an f64 and an f32
  check_rejects(k, "e2: operand e0 has dtype f64, expected f32");

  check_rejects(binary_kernel(ScalarOp::Lt, kFloat, 1, kFloat), "lt must have dtype b8");
  check_rejects(binary_kernel(ScalarOp::LogicalAnd, kInt, 1, kInt), "logical_and must have dtype b8");
  check_rejects(binary_kernel(ScalarOp::Atan2, kInt), "atan2 needs a floating dtype");
  check_rejects(unary_kernel(ScalarOp::Exp, kLong, kLong), "exp needs a floating dtype");
  check_rejects(binary_kernel(ScalarOp::BitwiseAnd, kFloat), "bitwise_and needs an integral or bool dtype");
  check_rejects(unary_kernel(ScalarOp::Neg, kBool, kBool), "neg is not defined on bool");
  Kernel cmp = binary_kernel(ScalarOp::Eq, kFloat, 1, kBool);
  cmp.exprs[1].dtype = kDouble;
  check_rejects(cmp, "eq operands differ in dtype");

  // Select: condition b8, values of the result dtype.
  Kernel s;
  s.rank = 1;
  KernelBuilder b(&s);
  const uint32_t x = b.add_access({b.add_buffer(kFloat, 1, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kFloat, 1, true), {}});
  const ExprId v = b.load(x, kFloat);
  b.add_store(out, b.select(v, v, b.constant(0, kDouble), kFloat), false);
  check_rejects(s, "e2: select condition must be b8");
  check_rejects(s, "e2: select values must have dtype f32");

  // Constants in their dtype's range; params in range.
  Kernel c;
  c.rank = 0;
  KernelBuilder bc(&c);
  const uint32_t co = bc.add_access({bc.add_buffer(kInt, 0, true), {}});
  const ExprId big = bc.constant(3e9, kLong);
  c.exprs[big].dtype = kInt;
  const ExprId p = bc.param(0, kInt);
  bc.add_store(co, bc.binary(ScalarOp::Add, big, p, kInt), false);
  c.num_params = 0;
  check_rejects(c, "e0: constant 3000000000 does not fit i32");
  check_rejects(c, "e1: param p0 out of range");
}

TEST_CASE("kernel ir: verify rejects bad reductions, stores and stages", "[kernel]") {
  Kernel k = softmax_kernel();
  k.reductions[0].input = 40;
  check_rejects(k, "r0: input e40 out of range");
  k = softmax_kernel();
  k.reductions[1].dtype = kDouble;
  check_rejects(k, "r1: input e3 has dtype f32, expected f64");
  k = softmax_kernel();
  k.reductions[1].op = ReduceOp::Any;
  check_rejects(k, "r1: any must have dtype b8");
  k = softmax_kernel();
  k.stores[0].access = 3;
  check_rejects(k, "store 0: access a3 out of range");
  k = softmax_kernel();
  k.stores[0].value = 30;
  check_rejects(k, "store 0: value e30 out of range");
  k = softmax_kernel();
  k.stores[0].access = 0;
  check_rejects(k, "store 0: a0 writes input buffer 0");
  check_rejects(k, "output buffer 1 is never stored");

  // Every reduction and store in exactly one stage.
  k = softmax_kernel();
  k.stages.erase(k.stages.begin());
  check_rejects(k, "r0 is in no stage");
  k = softmax_kernel();
  k.stages.pop_back();
  check_rejects(k, "store 0 is in no stage");
  k = softmax_kernel();
  k.stages.push_back(k.stages[1]);
  check_rejects(k, "stage 3: r1 already in stage 1");
  k = softmax_kernel();
  k.stages.push_back({Stage::Kind::Store, 4});
  check_rejects(k, "stage 3: store 4 out of range");

  // A reduced value used before (or in) its reduction's stage.
  k = softmax_kernel();
  std::swap(k.stages[1], k.stages[2]);  // store before the sum
  check_rejects(k, "stage 1: uses e4 (reduced r1) before r1's stage");
  k = softmax_kernel();
  k.exprs[3] = k.exprs[4];  // e3 = reduced r1, and r1 = sum(e3)
  check_rejects(k, "stage 1: uses e3 (reduced r1) before r1's stage");

  // An output read before a stage stored it.
  Kernel o;
  o.rank = 1;
  KernelBuilder b(&o);
  const uint32_t a = b.add_access({b.add_buffer(kFloat, 1, true), {}});
  b.add_store(a, b.unary(ScalarOp::Neg, b.load(a, kFloat), kFloat), false);
  check_rejects(o, "stage 0: e0 loads output a0 before a stage stores it");
}

TEST_CASE("kernel ir: print_kernel text form", "[kernel]") {
  const std::string expected =
      "kernel softmax_row  domain rank 2, reduce {1}\n"
      "  access a0 = in0 (f32, rank 2)\n"
      "  access a1 = out0 (f32, rank 2)\n"
      "  e0 : f32 = load a0\n"
      "  r0 : f32 = max(e0)                  (identity -inf)\n"
      "  e1 : f32 = reduced r0\n"
      "  e2 : f32 = sub e0, e1\n"
      "  e3 : f32 = exp e2\n"
      "  r1 : f32 = sum(e3)                  (identity 0)\n"
      "  e4 : f32 = reduced r1\n"
      "  e5 : f32 = div e3, e4\n"
      "  stage reduce r0; reduce r1; store a1 <- e5\n";
  CHECK(print_kernel(softmax_kernel()) == expected);

  // Views, params, shape refs, constants bit-exactly, reduced stores,
  // unused buffers and integer identities.
  Kernel k;
  k.name = "misc";
  k.rank = 3;
  k.reduce_axes = 0b101;
  k.num_shape_refs = 2;
  k.domain_shape = 1;
  KernelBuilder b(&k);
  const uint32_t in = b.add_buffer(kHalf, 2, false);
  b.add_buffer(kBool, 1, false);
  const uint32_t out = b.add_buffer(kLong, 1, true);
  const uint32_t a0 = b.add_access({in, {{ViewStep::Kind::Unsqueeze, {0}},
                                         {ViewStep::Kind::Slice, {1, 2, ViewStep::kNoBound, 3}},
                                         {ViewStep::Kind::ExpandTo, {1}}}});
  const uint32_t a1 = b.add_access({out, {{ViewStep::Kind::AsStrided, {3, 1, 4, 1, 0, 1, 0, 5}}}});
  // One statement per expression: argument evaluation order is unspecified.
  const ExprId x0 = b.load(a0, kFloat);
  const ExprId x = b.binary(ScalarOp::Mul, x0, b.constant(0.1, kFloat), kFloat);
  const ExprId xd = b.cast(x, kDouble);
  const ExprId nan = b.constant(std::numeric_limits<double>::quiet_NaN(), kDouble);
  const ExprId big = b.constant(1e300, kDouble);
  const ExprId mx = b.binary(ScalarOp::Maximum, nan, big, kDouble);
  const ExprId l = b.cast(b.binary(ScalarOp::Add, xd, mx, kDouble), kLong);
  const uint32_t r = b.add_reduction(ReduceOp::Max, l, kLong);
  const ExprId t = b.constant(1, kBool);
  const ExprId red = b.reduced(r);
  const ExprId p = b.param(0, kLong);
  b.add_store(a1, b.select(t, red, p, kLong), true);
  const std::string misc =
      "kernel misc  domain rank 3, reduce {0, 2}\n"
      "  shapes 2 (domain s1), params 1\n"
      "  access a0 = in0 (f16, rank 2): unsqueeze(0), slice(1, 2, None, 3), expand_to(s1)\n"
      "  access a1 = out0 (i64, rank 1): as_strided([1, 4, 1], [0, 1, 0], 5)\n"
      "  buffer in1 (b8, rank 1) unused\n"
      "  e0 : f32 = load a0\n"
      "  e1 : f32 = constant 0.1\n"
      "  e2 : f32 = mul e0, e1\n"
      "  e3 : f64 = cast e2\n"
      "  e4 : f64 = constant nan\n"
      "  e5 : f64 = constant 1e+300\n"
      "  e6 : f64 = maximum e4, e5\n"
      "  e7 : f64 = add e3, e6\n"
      "  e8 : i64 = cast e7\n"
      "  r0 : i64 = max(e8)                  (identity -9223372036854775808)\n"
      "  e9 : b8 = constant true\n"
      "  e10 : i64 = reduced r0\n"
      "  e11 : i64 = param p0\n"
      "  e12 : i64 = select e9, e10, e11\n"
      "  stage reduce r0; store.reduced a1 <- e12\n";
  CHECK(print_kernel(k) == misc);
  CHECK(verify_kernel(k) == "");

  // A constant prints in the shortest text that reads back bit-exactly.
  Kernel c;
  KernelBuilder bc(&c);
  const double third = 1.0 / 3.0;
  bc.constant(third, kDouble);
  const std::string text = print_kernel(c);
  const size_t at = text.find("constant ") + 9;
  CHECK(std::stod(text.substr(at, text.find('\n', at) - at)) == third);

  // The printer does not throw on malformed kernels.
  Kernel bad = softmax_kernel();
  bad.accesses[0].buffer = 9;
  bad.stages.push_back({Stage::Kind::Store, 7});
  CHECK(print_kernel(bad).find("access a0 = ?b9") != std::string::npos);
  CHECK(print_kernel(bad).find("store ?7") != std::string::npos);
}

namespace {

// out[i, j] = in0[in1[i], j]: in0 gathered along dim 0.
Kernel gather_rows_kernel() {
  Kernel k;
  k.name = "gather_rows";
  k.rank = 2;
  k.num_shape_refs = 1;
  KernelBuilder b(&k);
  const uint32_t table = b.add_access(
      {b.add_buffer(ScalarType::Float, 2, false), {{ViewStep::Kind::Gathered, {0}}, {ViewStep::Kind::ExpandTo, {0}}}});
  const uint32_t index = b.add_access({b.add_buffer(ScalarType::Long, 1, false),
                                       {{ViewStep::Kind::Reshape, {-1, 1}}, {ViewStep::Kind::ExpandTo, {0}}}});
  const uint32_t out = b.add_access({b.add_buffer(ScalarType::Float, 2, true), {}});
  b.add_store(out, b.gather(table, b.load(index, ScalarType::Long), ScalarType::Float), false);
  return k;
}

}  // namespace

TEST_CASE("kernel ir: gathers verify, print and interpret", "[kernel]") {
  Kernel k = gather_rows_kernel();
  REQUIRE(verify_kernel(k) == "");
  const std::string text = print_kernel(k);
  CHECK(text.find("gathered(0), expand_to(s0)") != std::string::npos);
  CHECK(text.find("gather a0 at e0") != std::string::npos);

  Kernel bad = gather_rows_kernel();
  bad.exprs[1].index = 1;
  check_rejects(bad, "which is not a gathered access");
  bad = gather_rows_kernel();
  bad.exprs[0].dtype = ScalarType::Int;
  check_rejects(bad, "gather index must be i64");
  bad = gather_rows_kernel();
  bad.accesses[0].views.insert(bad.accesses[0].views.begin(), ViewStep{ViewStep::Kind::Gathered, {1}});
  check_rejects(bad, "a second gathered step");
  bad = gather_rows_kernel();
  bad.exprs[1].op = ScalarOp::Load;
  check_rejects(bad, "load of gathered a0");

  // Rows 2, 0, 2 of a 3 x 2 table; the gathered dim has stride 2, extent 3.
  std::vector<float> table{0, 1, 10, 11, 20, 21};
  std::vector<int64_t> index{2, 0, 2};
  std::vector<float> out(6, -1);
  codegen_interp::KernelLaunch launch{{3, 2}, {bind(table, {0, 1}), bind(index, {1, 0}), bind(out, {2, 1})}, {}};
  launch.accesses[0].gather_stride = 2;
  launch.accesses[0].gather_extent = 3;
  codegen_interp::run_kernel(k, launch);
  CHECK(out == std::vector<float>{20, 21, 0, 1, 20, 21});
  index[1] = 3;
  CHECK_THROWS_AS(codegen_interp::run_kernel(k, launch), IndexError);
  index[1] = -1;
  CHECK_THROWS_AS(codegen_interp::run_kernel(k, launch), IndexError);
}

namespace {

// out = cat([in0, in1], dim 1): in0 in piece 0 (from 0), in1 in piece 1 (after in0).
Kernel cat_pieces_kernel() {
  Kernel k;
  k.name = "cat_pieces";
  k.rank = 2;
  k.num_shape_refs = 3;  // s0 the output, s1 and s2 the parts
  KernelBuilder b(&k);
  const uint32_t p0 = b.add_piece({1, 0, {}, 1});
  const uint32_t p1 = b.add_piece({1, 0, {1}, 2});
  const uint32_t a0 = b.add_access({b.add_buffer(ScalarType::Float, 2, false), {{ViewStep::Kind::Placed, {p0}}}});
  const uint32_t a1 = b.add_access({b.add_buffer(ScalarType::Float, 2, false), {{ViewStep::Kind::Placed, {p1}}}});
  const uint32_t out = b.add_access({b.add_buffer(ScalarType::Float, 2, true), {}});
  const ExprId left = b.load(a0, ScalarType::Float), right = b.load(a1, ScalarType::Float);
  b.add_store(out, b.select(b.in_piece(p0), left, right, ScalarType::Float), false);
  return k;
}

}  // namespace

TEST_CASE("kernel ir: pieces verify, print and interpret box by box", "[kernel]") {
  Kernel k = cat_pieces_kernel();
  REQUIRE(verify_kernel(k) == "");
  const std::string text = print_kernel(k);
  CHECK(text.find("piece1 = axis 1 from 0 + s1, size of s2") != std::string::npos);
  CHECK(text.find("placed(piece1)") != std::string::npos);
  CHECK(text.find("in_piece piece0") != std::string::npos);

  Kernel bad = cat_pieces_kernel();
  bad.accesses[0].views.push_back(ViewStep{ViewStep::Kind::Unsqueeze, {0}});
  check_rejects(bad, "followed by a step other than placed");
  bad = cat_pieces_kernel();
  bad.accesses[0].views.push_back(ViewStep{ViewStep::Kind::Placed, {1}});
  check_rejects(bad, "two placed steps along one axis");
  bad = cat_pieces_kernel();
  bad.accesses[1].views[0].ints[0] = 5;
  check_rejects(bad, "needs one piece in range");
  bad = cat_pieces_kernel();
  bad.pieces[1].axis = 2;
  check_rejects(bad, "piece 1: axis 2 out of the domain rank 2");
  bad = cat_pieces_kernel();
  bad.pieces[0].after.push_back(3);
  check_rejects(bad, "piece 0: shape ref s3 out of range");
  bad = cat_pieces_kernel();
  bad.exprs[2].index = 2;
  check_rejects(bad, "in_piece of piece 2 out of range");

  // The box of piece 1 of a 2 x (1 + 2) output: in1's columns, at out's columns 1 and 2.
  std::vector<float> right{10, 11, 20, 21};
  std::vector<float> out(6, -1), zeros(1, 0);
  codegen_interp::KernelLaunch box{{2, 2}, {bind(zeros, {0, 0}), bind(right, {2, 1}), bind(out, {3, 1})}, {}};
  box.accesses[2].data = out.data() + 1;
  box.in_piece = {0, 1};
  codegen_interp::run_kernel(k, box);
  CHECK(out == std::vector<float>{-1, 10, 11, -1, 20, 21});
}
