"""Variant (a): the raw CPython API, built by setuptools (the lab's own setup)."""

from setuptools import Extension, setup

setup(
    name="kc-capi",
    version="0.0.0",
    ext_modules=[
        Extension(
            "kc_capi",
            sources=["kc_capi.cpp"],
            include_dirs=["kernel", "common"],
            language="c++",
            extra_compile_args=["-std=c++17", "-O2", "-g0", "-fvisibility=hidden"],
        )
    ],
)
