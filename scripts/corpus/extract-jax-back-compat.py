#!/usr/bin/env python3
"""Writes each StableHLO module of JAX's export back-compat test data as a .mlir file.

JAX keeps the modules it checks for backward compatibility as Python string
literals (`mlir_module_text=r"..."` with triple quotes) inside dict(...) calls in
jax/_src/internal_test_util/export_back_compat_test_data/**/*.py. This reads
those files with Python's own parser (nothing is executed), and names each
module after its file and the variable it is assigned to, e.g.

  cpu_qr_lapack_geqrf.py: data_2025_04_02['c128'] = dict(mlir_module_text=...)
  -> OUT/cpu_qr_lapack_geqrf__data_2025_04_02_c128.mlir

Usage: extract-jax-back-compat.py SRC_DIR OUT_DIR
"""
import ast
import pathlib
import re
import sys


def module_texts(tree):
    """Yields (name, text) for each dict(...) call with a mlir_module_text string."""
    # Remember which assignment target each call belongs to, for naming.
    owner = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            target = ast.unparse(node.targets[0])
            for sub in ast.walk(node.value):
                owner.setdefault(id(sub), target)
    count = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg != "mlir_module_text":
                continue
            if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                continue
            count += 1
            name = owner.get(id(node), f"module{count}")
            yield name, kw.value.value


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for py in sorted(src.rglob("*.py")):
        tree = ast.parse(py.read_text(encoding="utf-8"), filename=str(py))
        stem = "__".join(py.relative_to(src).with_suffix("").parts)
        seen = {}
        for name, text in module_texts(tree):
            slug = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
            seen[slug] = seen.get(slug, 0) + 1
            if seen[slug] > 1:
                slug += f"_{seen[slug]}"
            (out / f"{stem}__{slug}.mlir").write_text(text.lstrip("\n"), encoding="utf-8")
            written += 1
    print(f"wrote {written} modules to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
