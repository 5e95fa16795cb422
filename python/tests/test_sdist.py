"""The sdist (python -m build --sdist from python/pyproject.toml) holds the
C sources and CMake files, nothing vendored, and builds and installs with
pip into a fresh virtual environment that has nothing of this one but the
build backend; the installed ordo-keys imports there and encodes. One
build of the C sources (the slow part), on two jobs."""
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import importlib.metadata

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = HERE.parent
ROOT = PACKAGE.parent

# scikit-build-core and its requirements: the fresh environment's build
# backend, taken from this one (pip --no-build-isolation), so the test
# needs no network
BACKEND = ["scikit_build_core", "packaging", "pathspec"]


def header_version():
    text = (ROOT / "include" / "ordo_version.h").read_text()
    return ".".join(re.search(r"#define ORDO_VERSION_%s (\d+)" % p, text).group(1)
                    for p in ("MAJOR", "MINOR", "PATCH"))


def backend_path(tmp_path):
    path = tmp_path / "backend"
    path.mkdir()
    for name in BACKEND:
        dist = importlib.metadata.distribution(name.replace("_", "-"))
        for top in (name, dist._path.name):  # the package and its .dist-info
            (path / top).symlink_to(pathlib.Path(dist.locate_file(top)))
    return path


def test_sdist_builds_and_installs_in_a_fresh_venv(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist",
                    "--outdir", str(dist), str(PACKAGE)],
                   check=True, capture_output=True, cwd=tmp_path)
    (sdist,) = dist.glob("*.tar.gz")
    version = header_version()
    assert sdist.name == "ordo_keys-%s.tar.gz" % version
    top = "ordo_keys-%s/" % version
    with tarfile.open(sdist) as t:
        names = {m.name[len(top):] for m in t.getmembers() if m.isfile()}
    # every C source and CMake file the package's build reads, and no more
    for d in ("include", "src", "simd", "ingest", "load", "table", "cmake"):
        tracked = {str(p.relative_to(ROOT)) for p in (ROOT / d).rglob("*") if p.is_file()
                   and "__pycache__" not in p.parts}
        assert tracked <= names, d
    for f in ("CMakeLists.txt", "pyproject.toml", "PKG-INFO", "python/CMakeLists.txt",
              "python/ordo/__init__.py", "python/ordo/py.typed", "python/ordo/__init__.pyi",
              "python/src/module.c"):
        assert f in names, f
    assert not any(n.startswith(("tests/", "python/tests/", "tools/", "bench/", "fuzz/"))
                   for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "LD_PRELOAD")}
    env.update(PYTHONPATH=str(backend_path(tmp_path)), CMAKE_BUILD_PARALLEL_LEVEL="2",
               PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps",
                    str(sdist)], check=True, env=env, cwd=tmp_path)

    env.pop("PYTHONPATH")
    check = ("import importlib.metadata, ordo\n"
             "print(ordo.__file__)\n"
             "print(ordo.__version__, importlib.metadata.version('ordo-keys'))\n"
             "k = ordo.encode_keys({'a': [2, 1]}, 'a', schema='a int')\n"
             "print(k[0].hex(), k[1].hex())\n")
    out = subprocess.run([str(py), "-c", check], env=env, cwd="/", capture_output=True,
                         text=True, check=True).stdout.split()
    assert pathlib.Path(out[0]).is_relative_to(venv)
    assert out[1] == out[2] == version
    # the keys of the checkout's build (the tests' own ordo), byte for byte
    import ordo

    want = ordo.encode_keys({"a": [2, 1]}, "a", schema="a int")
    assert out[3:] == [want[0].hex(), want[1].hex()]
