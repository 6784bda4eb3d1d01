/* SPDX-License-Identifier: GPL-2.0 */
/* gba_regs.h includes <stdint.h>; the kernel's types define uint8_t..uint64_t. */
#include <linux/types.h>
