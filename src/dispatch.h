/* Private: the implementation registry's lookups for the batch front end. */
#ifndef ORDO_DISPATCH_H
#define ORDO_DISPATCH_H

#include "kernels.h"

/* *k = the kernel table of the named implementation; NULL for "scalar",
 * which is the reference path. */
ordo_status ordo__impl_lookup(const char *name, const ordo__kernels **k);
/* The same for the implementation ordo_impl_name() reports. */
ordo_status ordo__impl_active(const ordo__kernels **k);

#endif
