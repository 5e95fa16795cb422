/* CRC32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum of
 * RocksDB's blocks and iSCSI: the run files' blocks carry it. */
#ifndef ORDO_CRC32C_H
#define ORDO_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC32C of crc's data followed by p[0..n) (crc 0: of nothing), so that
 * ordo__crc32c(ordo__crc32c(0, a), b) is the CRC32C of a then b. */
uint32_t ordo__crc32c(uint32_t crc, const void *p, size_t n);
/* The same by tables alone, whatever the CPU (what ordo__crc32c is tested
 * against). */
uint32_t ordo__crc32c_table(uint32_t crc, const void *p, size_t n);

#endif
