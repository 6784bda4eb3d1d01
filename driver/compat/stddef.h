/* SPDX-License-Identifier: GPL-2.0 */
/* gba_regs.h includes <stddef.h>; in the kernel, size_t and NULL come from here. */
#include <linux/stddef.h>
#include <linux/types.h>
