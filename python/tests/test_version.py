"""ordo.__version__ is the CMake project's version (include/ordo_version.h,
read by project()), which ctest passes as ORDO_PROJECT_VERSION."""
import os

import ordo


def test_version_is_the_cmake_project_version():
    want = os.environ.get("ORDO_PROJECT_VERSION")
    assert want, "ORDO_PROJECT_VERSION is set by ctest (python/CMakeLists.txt)"
    assert ordo.__version__ == want
    assert ordo.version == want
