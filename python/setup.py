"""Builds ordo._ordo with CMake from the repository this folder is part of
(`pip install ./python`): the C libraries are linked into the extension, so
the installed package needs nothing else of ordo. Needs cmake, a C compiler
and Debian's librocksdb-dev (for ordo.load and ordo.scan)."""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent.parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call([
            "cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
            "-DORDO_PYTHON=ON", "-DORDO_BUILD_TESTS=OFF", "-DORDO_BUILD_TOOLS=OFF",
            f"-DPython3_EXECUTABLE={sys.executable}"])
        jobs = str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "ordo_python",
                               "-j", jobs])
        built = next((build / "python" / "ordo").glob("_ordo*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[Extension("ordo._ordo", sources=[])], cmdclass={"build_ext": CMakeBuild})
