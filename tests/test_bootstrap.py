"""bootstrap.py's llama.cpp build flags: AVX-512 only where the CPU has every part llama.cpp compiles for,
never a native build (AMX), and AVX2 alone for installers."""

from __future__ import annotations

import bootstrap

AVX512 = {"avx2", "fma", "f16c", "avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"}


def test_avx2_only_without_avx512() -> None:
    args = bootstrap.x86_cmake_args({"avx2", "fma", "f16c", "bmi2"}, portable=False)
    assert args == bootstrap.X86_CMAKE_ARGS
    assert "AVX512" not in args


def test_avx512_with_every_base_part_and_only_the_extras_present() -> None:
    args = bootstrap.x86_cmake_args(AVX512 | {"avx512_vnni"}, portable=False).split()
    assert "-DGGML_AVX512=ON" in args
    assert "-DGGML_AVX512_VNNI=ON" in args
    assert "-DGGML_AVX512_BF16=ON" not in args and "-DGGML_AVX512_VBMI=ON" not in args


def test_a_missing_base_part_keeps_avx2() -> None:
    assert "AVX512" not in bootstrap.x86_cmake_args(AVX512 - {"avx512bw"}, portable=False)


def test_portable_build_for_installers() -> None:
    assert bootstrap.x86_cmake_args(AVX512 | {"avx512_bf16"}, portable=True) == bootstrap.X86_CMAKE_ARGS


def test_never_native_never_amx() -> None:
    args = bootstrap.x86_cmake_args(AVX512 | {"amx_tile", "amx_int8", "amx_bf16"}, portable=False)
    assert "-DGGML_NATIVE=OFF" in args
    assert "AMX" not in args
