"""Build of the private native extension ``codetok._core`` (C++17 sources in codetok/_native).

Everything else about the package lives in pyproject.toml. The extension is optional at run
time: without it (or with ``CODETOK_PURE_PYTHON=1``) the models use codetok/_reference.
"""

from glob import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

ext = Pybind11Extension(
    "codetok._core",
    sorted(glob("codetok/_native/*.cpp")),
    include_dirs=["codetok/_native"],
    cxx_std=17,
    extra_compile_args=["-O3", "-fvisibility=hidden"],
)
ext.depends = sorted(glob("codetok/_native/*.hpp"))

setup(ext_modules=[ext], cmdclass={"build_ext": build_ext})
