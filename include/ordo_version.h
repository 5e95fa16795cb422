/* ordo's version, defined here once: CMakeLists.txt reads these three
 * numbers into project(ordo VERSION ...), so the libraries' SONAME, the
 * package files and ordo_version() follow them. Included by ordo.h; the
 * source include/ is complete without a build. */
#ifndef ORDO_VERSION_H
#define ORDO_VERSION_H

#define ORDO_VERSION_MAJOR 0
#define ORDO_VERSION_MINOR 1
#define ORDO_VERSION_PATCH 0

/* "MAJOR.MINOR.PATCH" */
#define ORDO_VERSION__TEXT(n) #n
#define ORDO_VERSION__STR(a, b, c) ORDO_VERSION__TEXT(a) "." ORDO_VERSION__TEXT(b) "." ORDO_VERSION__TEXT(c)
#define ORDO_VERSION_STRING ORDO_VERSION__STR(ORDO_VERSION_MAJOR, ORDO_VERSION_MINOR, ORDO_VERSION_PATCH)

#endif
