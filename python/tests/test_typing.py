"""The package's types (py.typed, ordo/*.pyi): mypy --strict accepts a
typed example of every public name, the stubs pass mypy --strict
themselves, and the example runs: the stubs describe what the code does."""
import os
import pathlib
import subprocess
import sys

import ordo

HERE = pathlib.Path(__file__).resolve().parent
EXAMPLE = HERE / "typed_example.py"
PACKAGE = pathlib.Path(ordo.__file__).resolve().parent


def test_py_typed_and_stubs_are_beside_the_package():
    assert (PACKAGE / "py.typed").is_file()
    for stub in ("__init__.pyi", "spark.pyi", "dask.pyi"):
        assert (PACKAGE / stub).is_file(), stub


def test_stubs_name_every_public_name():
    text = (PACKAGE / "__init__.pyi").read_text()
    for name in ordo.__all__ + ["open", "version"]:
        assert ("def %s(" % name in text or "class %s" % name in text
                or "%s:" % name in text), name


def test_mypy_strict_accepts_the_typed_example(tmp_path):
    env = dict(os.environ, MYPYPATH=str(PACKAGE.parent))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                        "--cache-dir", str(tmp_path / "cache"), str(EXAMPLE)],
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_refuses_a_wrong_type(tmp_path):
    # the check could fail: a str where the stubs say int
    bad = tmp_path / "bad.py"
    bad.write_text("import ordo\nordo.encode_keys({'a': [1]}, 'a', threads='2')\n")
    env = dict(os.environ, MYPYPATH=str(PACKAGE.parent))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                        "--cache-dir", str(tmp_path / "cache"), str(bad)],
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1 and "threads" in r.stdout, r.stdout + r.stderr


def test_the_typed_example_runs(tmp_path):
    r = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [ordo.impl_name(), ordo.__version__]
