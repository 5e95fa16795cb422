"""The package installs with pip (building the extension with CMake) and
with cmake --install, and imports from there alone."""
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent


def imports_from(path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(path)
    out = subprocess.run(
        [sys.executable, "-c", "import ordo; print(ordo.__file__); print(ordo.impl_name())"],
        env=env, cwd="/", capture_output=True, text=True, check=True).stdout.split()
    assert pathlib.Path(out[0]).is_relative_to(path)
    assert out[1] in {"scalar", "portable", "sse41", "avx2", "avx512", "neon"}


def test_pip_install(tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation",
                    "--no-deps", "--disable-pip-version-check", "--target", str(target),
                    str(PACKAGE)], check=True, env=dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL="2"))
    imports_from(target)


def test_cmake_install(tmp_path):
    build = os.environ.get("ORDO_BUILD_DIR")
    assert build, "ORDO_BUILD_DIR (the CMake build folder) is set by ctest"
    subprocess.run(["cmake", "--install", build, "--prefix", str(tmp_path)], check=True,
                   capture_output=True)
    v = sys.version_info
    site = [p for p in tmp_path.glob(f"lib*/python{v.major}.{v.minor}/site-packages")]
    assert len(site) == 1
    imports_from(site[0])
