/*
 * The distributed loads' part of ordo._ordo (cluster_csv.c): what
 * ordo.dask.load needs beyond the load bindings.
 */
#ifndef ORDO_PY_CLUSTER_H
#define ORDO_PY_CLUSTER_H

#include "module.h"

int ordo__py_cluster_part(PyObject *m);

#endif
