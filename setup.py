"""Build of the private native extension ``codetok._core`` (C++17 sources in codetok/_native:
kernels/, plans/, code/, train/, tables/ and bindings/, included from that folder).

Everything else about the package lives in pyproject.toml. The extension is optional at run
time: without it (or with ``CODETOK_PURE_PYTHON=1``) the models use codetok/reference.

The code lexer's native walk (codetok/_native/code/code_lexer.cpp) parses with the tree-sitter C
runtime, compiled into the extension from the source distribution of the ``tree-sitter``
package on PyPI (the one the Python bindings are built from; nothing is copied into this
repository): ``pip download`` fetches it at build time into ``build/``, or
``CODETOK_TREE_SITTER_SRC`` names an unpacked copy (a folder holding ``lib/src/lib.c``).
Without it the extension is built without the native lexer and the Python one runs.
"""

import os
import subprocess
import sys
import tarfile
import tempfile
from glob import glob
from pathlib import Path

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

#: The tree-sitter runtime compiled into the extension. The native lexer runs only when the
#: installed ``tree-sitter`` bindings are this version too (the Python lexer's trees, the
#: specification, are then the same trees).
TREE_SITTER_VERSION = "0.26.1"
_CACHE = Path(__file__).resolve().parent / "build" / f"tree-sitter-{TREE_SITTER_VERSION}"


def _unpack(archive: Path, dest: Path) -> None:
    """The runtime's ``lib`` folder of a ``tree-sitter`` sdist, into ``dest``."""
    prefix = f"tree_sitter-{TREE_SITTER_VERSION}/tree_sitter/core/lib/"
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.name.startswith(prefix) and m.isfile()]
        if not members:
            raise RuntimeError(f"{archive.name} holds no {prefix}")
        for m in members:
            target = dest / "lib" / m.name[len(prefix) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(m) as src:  # type: ignore[union-attr]
                target.write_bytes(src.read())


def tree_sitter_source() -> Path | None:
    """A folder holding the tree-sitter runtime (``lib/src/lib.c``, ``lib/include``)."""
    given = os.environ.get("CODETOK_TREE_SITTER_SRC")
    if given:
        return Path(given)
    if (_CACHE / "lib" / "src" / "lib.c").is_file():
        return _CACHE
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", f"tree-sitter=={TREE_SITTER_VERSION}",
               "--no-binary", ":all:", "--no-deps", "--quiet", "-d", tmp]  # fmt: skip
        try:
            subprocess.run(cmd, check=True, timeout=600)
            archives = glob(os.path.join(tmp, "tree_sitter-*.tar.gz"))
            if not archives:
                raise RuntimeError("pip download gave no source archive")
            staging = _CACHE.with_name(_CACHE.name + ".tmp")
            _unpack(Path(archives[0]), staging)
            staging.rename(_CACHE)
        except (OSError, RuntimeError, subprocess.SubprocessError, tarfile.TarError) as e:
            print(f"codetok: no tree-sitter runtime source ({e}); building without the "
                  "native code lexer", file=sys.stderr)  # fmt: skip
            return None
    return _CACHE


class BuildExt(build_ext):
    """Compiles the tree-sitter runtime (C) into the extension when its source is at hand."""

    def build_extensions(self) -> None:
        src = tree_sitter_source()
        if src is not None:
            lib = src / "lib"
            # tree_walk.c reads the runtime's internal headers, so it builds with it.
            objects = self.compiler.compile(
                [str(lib / "src" / "lib.c"), "codetok/_native/code/tree_walk.c"],
                output_dir=self.build_temp,
                include_dirs=[str(lib / "include"), str(lib / "src"), "codetok/_native"],
                extra_postargs=["-O3", "-std=c11", "-fvisibility=hidden",
                                "-D_POSIX_C_SOURCE=200112L", "-D_DEFAULT_SOURCE"],
            )  # fmt: skip
            for ext in self.extensions:
                ext.extra_objects.extend(objects)
                ext.include_dirs.append(str(lib / "include"))
                ext.define_macros.append(("CODETOK_TREE_SITTER", f'"{TREE_SITTER_VERSION}"'))
        super().build_extensions()


# The C++ sources compile on every core (``CODETOK_BUILD_JOBS`` sets how many): on two
# cores the extension builds in 52 s instead of 94 s one file at a time.
ParallelCompile("CODETOK_BUILD_JOBS", default=0).install()

ext = Pybind11Extension(
    "codetok._core",
    sorted(glob("codetok/_native/*/*.cpp")),
    include_dirs=["codetok/_native"],
    cxx_std=17,
    # No fused multiply-add contraction: the kernels' float results stay bit-identical to
    # their pure-Python references (codetok/reference) on every CPU.
    extra_compile_args=["-O3", "-fvisibility=hidden", "-ffp-contract=off"],
)
# Headers, and the C walker BuildExt compiles with the runtime (listed so an sdist ships them).
ext.depends = sorted(glob("codetok/_native/*/*.hpp") + glob("codetok/_native/*/*.[ch]"))

setup(ext_modules=[ext], cmdclass={"build_ext": BuildExt})
