"""Variant (d): the Cython port, cythonized and built by setuptools."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    name="kc-cython",
    version="0.0.0",
    ext_modules=cythonize(
        [
            Extension(
                "kc_cython",
                sources=["kc_cython.pyx"],
                extra_compile_args=["-O2", "-g0"],
            )
        ]
    ),
)
