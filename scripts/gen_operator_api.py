#!/usr/bin/env python3
"""Generates the definitions of Lazuli's public operator API from core/operators.def.

Every declared operator becomes the C++ forms its `Api` names: a free function
(lz::relu(x)), a Tensor method (x.relu()), or both; an in-place operator gets
`Tensor& relu_(Tensor& self)`, an out= operator `Tensor& relu_out(Tensor& out,
const Tensor& self)` (outs first, as in libtorch). Each form calls the operator
through the dispatcher with one typed handle per operator, looked up once.
The C++ types follow libtorch's: Tensor -> const Tensor&, Scalar? ->
const std::optional<Scalar>&, int[] -> IntArrayRef, str -> std::string_view,
and a factory's dtype/layout/device/pin_memory (and memory_format) are one
`const TensorOptions&`.

The declarations, with defaults and documentation, are the hand-written headers;
the generated files turn -Wmissing-declarations into an error, so a generated
function the headers do not declare (a signature that drifted) fails to
compile, as does a generated method the Tensor class does not declare.

One output file per section of operators.def (its `// ---- ... (eager_kernels/
register_<family>.cpp) ----` line), so the definitions compile in parallel, and
operator_api_signatures.cpp: the call signature of every operator
(core/operator_api.h), which a test compares with the registered kernels'.

  gen_operator_api.py --def core/operators.def --out-dir DIR   write the files into DIR
  gen_operator_api.py --def core/operators.def --list          print the file names
"""

import argparse
import os
import re
import sys

# The headers that declare the public forms.
PUBLIC_HEADERS = [
    "core/tensor.h",
    "core/factories.h",
    "core/ops_binary.h",
    "core/ops_compare.h",
    "core/ops_copy.h",
    "core/ops_linalg.h",
    "core/ops_nn.h",
    "core/ops_reduction.h",
    "core/ops_shape.h",
    "core/ops_unary.h",
    "core/ops_views.h",
]

SECTION = re.compile(r"^// ---- .*\(eager_kernels/register_(\w+)\.cpp\) ----$")
ENTRY = re.compile(r'^(LZ_OPERATOR|LZ_INPLACE|LZ_OUT)\((\w+), (?:(\w+), )?"([^"]*)"(?:, (\w+))?.*\)$')

# Schema type -> the C++ type of the dispatcher call (kernels take the same).
CALL_TYPES = {
    "Tensor": "const Tensor&",
    "Tensor?": "const std::optional<Tensor>&",
    "Tensor[]": "TensorList",
    "Scalar": "const Scalar&",
    "Scalar?": "const std::optional<Scalar>&",
    "int": "int64_t",
    "int?": "std::optional<int64_t>",
    "int[]": "IntArrayRef",
    "int[]?": "std::optional<IntArrayRef>",
    "float": "double",
    "float?": "std::optional<double>",
    "bool": "bool",
    "bool?": "std::optional<bool>",
    "str": "std::string_view",
    "str?": "std::optional<std::string_view>",
    "ScalarType": "ScalarType",
    "ScalarType?": "std::optional<ScalarType>",
    "Layout?": "std::optional<Layout>",
    "Device?": "std::optional<Device>",
    "MemoryFormat": "MemoryFormat",
    "MemoryFormat?": "std::optional<MemoryFormat>",
    "Generator?": "std::optional<Generator>",
}
# Where the public API's type differs from the call's (it converts to it).
PUBLIC_TYPES = {"int[]?": "OptionalIntArrayRef"}
RETURN_TYPES = {"Tensor": "Tensor", "Tensor[]": "std::vector<Tensor>", "bool": "bool", "Scalar": "Scalar"}
# A factory's options, in schema order, and how a TensorOptions gives each.
OPTION_ARGS = [("dtype", "ScalarType?"), ("layout", "Layout?"), ("device", "Device?"), ("pin_memory", "bool?")]
OPTION_VALUES = {
    "dtype": "options.dtype_opt()",
    "layout": "options.layout_opt()",
    "device": "options.device_opt()",
    "pin_memory": "std::nullopt",  # TensorOptions has no pinned memory
    "memory_format": "options.memory_format_opt()",
}


class GenError(Exception):
    pass


class Arg:
    def __init__(self, text, kwarg_only):
        decl = text.split("=")[0].strip()
        self.type, self.name = decl.rsplit(" ", 1)
        self.kwarg_only = kwarg_only
        self.mutable = "!" in self.type
        # Tensor(a!) -> Tensor, int[1]? -> int[]?
        self.base = re.sub(r"\(\w!?\)", "", self.type)
        self.base = re.sub(r"\[\d+\]", "[]", self.base)
        if self.base not in CALL_TYPES:
            raise GenError(f"argument '{self.name}': no C++ type for schema type '{self.type}'")

    def call_type(self):
        return CALL_TYPES[self.base]

    def public_type(self):
        return PUBLIC_TYPES.get(self.base, self.call_type())


def split_top_level(text):
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur.strip())
    return parts


class Operator:
    def __init__(self, op_id, schema, api, family):
        self.id = op_id
        self.schema = schema
        self.family = family
        self.api = api
        head, returns = schema.rsplit(" -> ", 1)
        full_name = head[: head.index("(")]
        self.name = full_name.split(".")[0]
        self.args = []
        kwarg_only = False
        for text in split_top_level(head[head.index("(") + 1 : -1]):
            if text == "*":
                kwarg_only = True
                continue
            self.args.append(Arg(text, kwarg_only))
        self.returns = self.parse_returns(returns.strip())
        self.outs = [a for a in self.args if a.mutable and a.kwarg_only]
        self.inplace = not self.outs and self.name.endswith("_") and bool(self.args) and self.args[0].mutable
        if self.outs and api != "Function":
            raise GenError(f"{full_name}: an out= operator is a function only")

    def parse_returns(self, text):
        if text.startswith("("):
            items = [t.strip().split(" ")[0] for t in split_top_level(text[1:-1])]
        else:
            items = [text]
        types = []
        for t in items:
            base = re.sub(r"\(\w!?\)", "", t)
            if base not in RETURN_TYPES:
                raise GenError(f"{self.schema}: no C++ type for return type '{t}'")
            types.append(RETURN_TYPES[base])
        return types

    # -- the dispatcher call -------------------------------------------------

    def call_return(self):
        if len(self.returns) == 1:
            return self.returns[0]
        return "std::tuple<" + ", ".join(self.returns) + ">"

    def call_signature(self):
        return f"{self.call_return()}({', '.join(a.call_type() for a in self.args)})"

    def handle(self):
        return f"op_{self.id}()"

    # -- the public forms ----------------------------------------------------

    def options_group(self):
        """Index of the dtype/layout/device/pin_memory run, or None."""
        names = [(a.name, a.base) for a in self.args]
        for i in range(len(names) - len(OPTION_ARGS) + 1):
            if names[i : i + len(OPTION_ARGS)] == OPTION_ARGS:
                return i
        return None

    def public_params(self, method):
        """(C++ parameter declarations, call arguments) of a public form."""
        group = self.options_group()
        folded = ({name for name, _ in OPTION_ARGS} | {"memory_format"}) if group is not None else set()
        params, outs, call_args = [], [], []
        for i, a in enumerate(self.args):
            if method and a.name == "self":
                call_args.append("*this")
                continue
            if a.name in folded and (a.name != "memory_format" or a.base == "MemoryFormat?"):
                if i == group:
                    params.append("const TensorOptions& options")
                call_args.append(OPTION_VALUES[a.name])
                continue
            if a in self.outs:
                outs.append(f"Tensor& {a.name}")
            elif self.inplace and i == 0:
                params.append(f"Tensor& {a.name}")
            else:
                params.append(f"{a.public_type()} {a.name}")
            call_args.append(a.name)
        return outs + params, call_args

    def public_return(self):
        if self.outs:
            if len(self.outs) == 1:
                return "Tensor&"
            return "std::tuple<" + ", ".join("Tensor&" for _ in self.outs) + ">"
        if self.inplace:
            return "Tensor&"
        return self.call_return()

    def body(self, call_args, method):
        call = f"{self.handle()}.call({', '.join(call_args)})"
        if self.outs:
            if len(self.outs) == 1:
                return f"  {call};\n  return {self.outs[0].name};\n"
            return f"  {call};\n  return {{{', '.join(o.name for o in self.outs)}}};\n"
        if self.inplace:
            return f"  {call};\n  return {'*this' if method else self.args[0].name};\n"
        return f"  return {call};\n"

    def public_name(self):
        return self.name + "_out" if self.outs else self.name

    def definitions(self):
        text = ""
        if self.api in ("Function", "FunctionAndMethod"):
            params, call_args = self.public_params(method=False)
            text += f"{self.public_return()} {self.public_name()}({', '.join(params)}) {{\n"
            text += self.body(call_args, method=False) + "}\n"
        if self.api in ("Method", "FunctionAndMethod"):
            if not any(a.name == "self" and a.base == "Tensor" for a in self.args):
                raise GenError(f"{self.schema}: a method needs a Tensor argument named self")
            params, call_args = self.public_params(method=True)
            qualifier = "" if self.inplace else " const"
            text += f"{self.public_return()} Tensor::{self.public_name()}({', '.join(params)}){qualifier} {{\n"
            text += self.body(call_args, method=True) + "}\n"
        return text


def read_declarations(path):
    operators, family = [], None
    functional_api = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            section = SECTION.match(line)
            if section:
                family = section.group(1)
                continue
            m = ENTRY.match(line)
            if not m:
                if line.startswith("LZ_"):
                    raise GenError(f"{path}:{lineno}: cannot read the declaration: {line}")
                continue
            macro, op_id, _functional, schema, api = m.groups()
            if family is None:
                raise GenError(f"{path}:{lineno}: a declaration before the first section line")
            if macro == "LZ_OUT":
                api = "Function"
            if api not in ("Function", "Method", "FunctionAndMethod"):
                raise GenError(f"{path}:{lineno}: unknown Api '{api}'")
            try:
                operators.append(Operator(op_id, schema, api, family))
            except GenError as e:
                raise GenError(f"{path}:{lineno}: {e}") from None
    return operators


def families(operators):
    seen = []
    for op in operators:
        if op.family not in seen:
            seen.append(op.family)
    return seen


def file_name(family):
    return f"operator_api_{family}.cpp"


def render(family, operators):
    out = [
        f"// Generated by scripts/gen_operator_api.py from core/operators.def: the public\n"
        f"// forms of the {family} operators (declared in the headers below). Do not edit.\n",
    ]
    out += [f'#include "{h}"\n' for h in PUBLIC_HEADERS]
    out.append('#include "core/dispatcher.h"\n#include "core/op_id.h"\n\n')
    out.append('#pragma GCC diagnostic error "-Wmissing-declarations"\n\n')
    out.append("namespace lz {\n\n")
    out.append("namespace {\n")
    for op in operators:
        sig = op.call_signature()
        out.append(
            f"const TypedOperatorHandle<{sig}>& {op.handle()} {{\n"
            f"  static const auto handle = Dispatcher::singleton().find(OpId::{op.id}).typed<{sig}>();\n"
            f"  return handle;\n}}\n"
        )
    out.append("}  // namespace\n\n")
    for op in operators:
        out.append(op.definitions())
    out.append("\n}  // namespace lz\n")
    return "".join(out)


SIGNATURES_FILE = "operator_api_signatures.cpp"


def render_signatures(operators):
    out = [
        "// Generated by scripts/gen_operator_api.py from core/operators.def: the C++\n"
        "// signature each public form calls its operator with. Do not edit.\n",
        '#include "core/operator_api.h"\n\n#include "core/kernel_function.h"\n#include "core/tensor.h"\n',
    ]
    out.append("\nnamespace lz {\n\nstd::span<const ApiCallSignature> api_call_signatures() {\n")
    out.append("  static const ApiCallSignature signatures[] = {\n")
    for op in operators:
        sig = op.call_signature()
        out.append(f'      {{OpId::{op.id}, detail::signature_tag<{sig}>(), "{sig}"}},\n')
    out.append("  };\n  return signatures;\n}\n\n}  // namespace lz\n")
    return "".join(out)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--def", dest="defs", required=True)
    parser.add_argument("--out-dir")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    try:
        operators = read_declarations(args.defs)
        if args.list:
            print(";".join([file_name(f) for f in families(operators)] + [SIGNATURES_FILE]))
            return 0
        os.makedirs(args.out_dir, exist_ok=True)
        for family in families(operators):
            text = render(family, [op for op in operators if op.family == family])
            write_if_changed(os.path.join(args.out_dir, file_name(family)), text)
        write_if_changed(os.path.join(args.out_dir, SIGNATURES_FILE), render_signatures(operators))
    except GenError as e:
        print(f"gen_operator_api: {e}", file=sys.stderr)
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main())
