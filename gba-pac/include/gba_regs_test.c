// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.
//
// The header's self-test: compile and run it with the header beside it
// (cc -std=c11 -Wall -Wextra -Werror FILE.c && ./a.out).

#include "gba_regs.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CHECK(what, ok) do { checks++; if (!(ok)) { failures++; printf("FAILED: %s\n", what); } } while (0)

/* ---- Static checks: the header's numbers are the spec's ---- */

_Static_assert(GBA_MAX_GROUPS == 32U, "GBA_MAX_GROUPS is not 32U");
_Static_assert(GBA_MAX_MEMBERS == 708U, "GBA_MAX_MEMBERS is not 708U");
_Static_assert(GBA_WINDOW_SIZE == 0x50000U, "GBA_WINDOW_SIZE is not 0x50000U");
_Static_assert(GBA_GLOBAL_OFFSET == 0x0U, "GBA_GLOBAL_OFFSET is not 0x0U");
_Static_assert(GBA_GLOBAL_SIZE == 0x1000U, "GBA_GLOBAL_SIZE is not 0x1000U");
_Static_assert(GBA_GLOBAL_DEVICE_ID_OFFSET == 0x0U, "GBA_GLOBAL_DEVICE_ID_OFFSET is not 0x0U");
_Static_assert(GBA_GLOBAL_DEVICE_ID_RESET_VALUE == 0x47424131U, "GBA_GLOBAL_DEVICE_ID_RESET_VALUE is not 0x47424131U");
_Static_assert(GBA_GLOBAL_DEVICE_ID_ID_SHIFT == 0, "GBA_GLOBAL_DEVICE_ID_ID_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_DEVICE_ID_ID_WIDTH == 32, "GBA_GLOBAL_DEVICE_ID_ID_WIDTH is not 32");
_Static_assert(GBA_GLOBAL_DEVICE_ID_ID_MASK == 0xFFFFFFFFU, "GBA_GLOBAL_DEVICE_ID_ID_MASK is not 0xFFFFFFFFU");
_Static_assert((uint64_t)GBA_GLOBAL_DEVICE_ID_ID_MASK == (((UINT64_C(1) << GBA_GLOBAL_DEVICE_ID_ID_WIDTH) - 1) << GBA_GLOBAL_DEVICE_ID_ID_SHIFT), "GBA_GLOBAL_DEVICE_ID_ID_MASK is not GBA_GLOBAL_DEVICE_ID_ID_WIDTH bits at GBA_GLOBAL_DEVICE_ID_ID_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_DEVICE_ID_ID_MASK >> 32) == 0, "GBA_GLOBAL_DEVICE_ID_ID_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_VERSION_OFFSET == 0x4U, "GBA_GLOBAL_VERSION_OFFSET is not 0x4U");
_Static_assert(GBA_GLOBAL_VERSION_RESET_VALUE == 0x10001U, "GBA_GLOBAL_VERSION_RESET_VALUE is not 0x10001U");
_Static_assert(GBA_GLOBAL_VERSION_MAJOR_SHIFT == 16, "GBA_GLOBAL_VERSION_MAJOR_SHIFT is not 16");
_Static_assert(GBA_GLOBAL_VERSION_MAJOR_WIDTH == 16, "GBA_GLOBAL_VERSION_MAJOR_WIDTH is not 16");
_Static_assert(GBA_GLOBAL_VERSION_MAJOR_MASK == 0xFFFF0000U, "GBA_GLOBAL_VERSION_MAJOR_MASK is not 0xFFFF0000U");
_Static_assert((uint64_t)GBA_GLOBAL_VERSION_MAJOR_MASK == (((UINT64_C(1) << GBA_GLOBAL_VERSION_MAJOR_WIDTH) - 1) << GBA_GLOBAL_VERSION_MAJOR_SHIFT), "GBA_GLOBAL_VERSION_MAJOR_MASK is not GBA_GLOBAL_VERSION_MAJOR_WIDTH bits at GBA_GLOBAL_VERSION_MAJOR_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_VERSION_MAJOR_MASK >> 32) == 0, "GBA_GLOBAL_VERSION_MAJOR_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_VERSION_MINOR_SHIFT == 0, "GBA_GLOBAL_VERSION_MINOR_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_VERSION_MINOR_WIDTH == 16, "GBA_GLOBAL_VERSION_MINOR_WIDTH is not 16");
_Static_assert(GBA_GLOBAL_VERSION_MINOR_MASK == 0xFFFFU, "GBA_GLOBAL_VERSION_MINOR_MASK is not 0xFFFFU");
_Static_assert((uint64_t)GBA_GLOBAL_VERSION_MINOR_MASK == (((UINT64_C(1) << GBA_GLOBAL_VERSION_MINOR_WIDTH) - 1) << GBA_GLOBAL_VERSION_MINOR_SHIFT), "GBA_GLOBAL_VERSION_MINOR_MASK is not GBA_GLOBAL_VERSION_MINOR_WIDTH bits at GBA_GLOBAL_VERSION_MINOR_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_VERSION_MINOR_MASK >> 32) == 0, "GBA_GLOBAL_VERSION_MINOR_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_CAPS_OFFSET == 0x8U, "GBA_GLOBAL_CAPS_OFFSET is not 0x8U");
_Static_assert(GBA_GLOBAL_CAPS_RESET_VALUE == 0x2C420U, "GBA_GLOBAL_CAPS_RESET_VALUE is not 0x2C420U");
_Static_assert(GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT == 0, "GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_CAPS_MAX_GROUPS_WIDTH == 8, "GBA_GLOBAL_CAPS_MAX_GROUPS_WIDTH is not 8");
_Static_assert(GBA_GLOBAL_CAPS_MAX_GROUPS_MASK == 0xFFU, "GBA_GLOBAL_CAPS_MAX_GROUPS_MASK is not 0xFFU");
_Static_assert((uint64_t)GBA_GLOBAL_CAPS_MAX_GROUPS_MASK == (((UINT64_C(1) << GBA_GLOBAL_CAPS_MAX_GROUPS_WIDTH) - 1) << GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT), "GBA_GLOBAL_CAPS_MAX_GROUPS_MASK is not GBA_GLOBAL_CAPS_MAX_GROUPS_WIDTH bits at GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_CAPS_MAX_GROUPS_MASK >> 32) == 0, "GBA_GLOBAL_CAPS_MAX_GROUPS_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT == 8, "GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT is not 8");
_Static_assert(GBA_GLOBAL_CAPS_MAX_MEMBERS_WIDTH == 12, "GBA_GLOBAL_CAPS_MAX_MEMBERS_WIDTH is not 12");
_Static_assert(GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK == 0xFFF00U, "GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK is not 0xFFF00U");
_Static_assert((uint64_t)GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK == (((UINT64_C(1) << GBA_GLOBAL_CAPS_MAX_MEMBERS_WIDTH) - 1) << GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT), "GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK is not GBA_GLOBAL_CAPS_MAX_MEMBERS_WIDTH bits at GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK >> 32) == 0, "GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_PORT_ID_OFFSET == 0xCU, "GBA_GLOBAL_PORT_ID_OFFSET is not 0xCU");
_Static_assert(GBA_GLOBAL_PORT_ID_RESET_VALUE == 0x0U, "GBA_GLOBAL_PORT_ID_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GLOBAL_PORT_ID_RESET_FIXED_MASK == 0xFFFFF000U, "GBA_GLOBAL_PORT_ID_RESET_FIXED_MASK is not 0xFFFFF000U");
_Static_assert(GBA_GLOBAL_PORT_ID_PORT_SHIFT == 0, "GBA_GLOBAL_PORT_ID_PORT_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_PORT_ID_PORT_WIDTH == 12, "GBA_GLOBAL_PORT_ID_PORT_WIDTH is not 12");
_Static_assert(GBA_GLOBAL_PORT_ID_PORT_MASK == 0xFFFU, "GBA_GLOBAL_PORT_ID_PORT_MASK is not 0xFFFU");
_Static_assert((uint64_t)GBA_GLOBAL_PORT_ID_PORT_MASK == (((UINT64_C(1) << GBA_GLOBAL_PORT_ID_PORT_WIDTH) - 1) << GBA_GLOBAL_PORT_ID_PORT_SHIFT), "GBA_GLOBAL_PORT_ID_PORT_MASK is not GBA_GLOBAL_PORT_ID_PORT_WIDTH bits at GBA_GLOBAL_PORT_ID_PORT_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_PORT_ID_PORT_MASK >> 32) == 0, "GBA_GLOBAL_PORT_ID_PORT_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_GROUP_ENABLED_OFFSET == 0x10U, "GBA_GLOBAL_GROUP_ENABLED_OFFSET is not 0x10U");
_Static_assert(GBA_GLOBAL_GROUP_ENABLED_RESET_VALUE == 0x0U, "GBA_GLOBAL_GROUP_ENABLED_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT == 0, "GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_GROUP_ENABLED_GROUPS_WIDTH == 32, "GBA_GLOBAL_GROUP_ENABLED_GROUPS_WIDTH is not 32");
_Static_assert(GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK == 0xFFFFFFFFU, "GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK is not 0xFFFFFFFFU");
_Static_assert((uint64_t)GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK == (((UINT64_C(1) << GBA_GLOBAL_GROUP_ENABLED_GROUPS_WIDTH) - 1) << GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT), "GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK is not GBA_GLOBAL_GROUP_ENABLED_GROUPS_WIDTH bits at GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK >> 32) == 0, "GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_GROUPS_BUSY_OFFSET == 0x14U, "GBA_GLOBAL_GROUPS_BUSY_OFFSET is not 0x14U");
_Static_assert(GBA_GLOBAL_GROUPS_BUSY_RESET_VALUE == 0x0U, "GBA_GLOBAL_GROUPS_BUSY_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT == 0, "GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_GROUPS_BUSY_GROUPS_WIDTH == 32, "GBA_GLOBAL_GROUPS_BUSY_GROUPS_WIDTH is not 32");
_Static_assert(GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK == 0xFFFFFFFFU, "GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK is not 0xFFFFFFFFU");
_Static_assert((uint64_t)GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK == (((UINT64_C(1) << GBA_GLOBAL_GROUPS_BUSY_GROUPS_WIDTH) - 1) << GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT), "GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK is not GBA_GLOBAL_GROUPS_BUSY_GROUPS_WIDTH bits at GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT");
_Static_assert(((uint64_t)GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK >> 32) == 0, "GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK is wider than its register");
_Static_assert(GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET == 0x18U, "GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET is not 0x18U");
_Static_assert(GBA_GLOBAL_BARRIERS_COMPLETED_RESET_VALUE == 0x0ULL, "GBA_GLOBAL_BARRIERS_COMPLETED_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GLOBAL_BARRIERS_COMPLETED_RESET_VALUE) == 8, "GBA_GLOBAL_BARRIERS_COMPLETED_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT == 0, "GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT is not 0");
_Static_assert(GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_WIDTH == 64, "GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_WIDTH is not 64");
_Static_assert(GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK == 0xFFFFFFFFFFFFFFFFULL, "GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK is not 0xFFFFFFFFFFFFFFFFULL");
_Static_assert(sizeof(GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK) == 8, "GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK == (UINT64_MAX << GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT), "GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK is not GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_WIDTH bits at GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT");
_Static_assert(GBA_GROUP_OFFSET == 0x10000U, "GBA_GROUP_OFFSET is not 0x10000U");
_Static_assert(GBA_GROUP_SIZE == 0x2000U, "GBA_GROUP_SIZE is not 0x2000U");
_Static_assert(GBA_GROUP_COUNT == 32U, "GBA_GROUP_COUNT is not 32U");
_Static_assert(GBA_GROUP_STRIDE == 0x2000U, "GBA_GROUP_STRIDE is not 0x2000U");
_Static_assert(GBA_GROUP_GROUP_ID_OFFSET == 0x0U, "GBA_GROUP_GROUP_ID_OFFSET is not 0x0U");
_Static_assert(GBA_GROUP_GROUP_ID_RESET_VALUE == 0x0U, "GBA_GROUP_GROUP_ID_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GROUP_GROUP_ID_RESET_FIXED_MASK == 0xFFFFFFE0U, "GBA_GROUP_GROUP_ID_RESET_FIXED_MASK is not 0xFFFFFFE0U");
_Static_assert(GBA_GROUP_GROUP_ID_ID_SHIFT == 0, "GBA_GROUP_GROUP_ID_ID_SHIFT is not 0");
_Static_assert(GBA_GROUP_GROUP_ID_ID_WIDTH == 5, "GBA_GROUP_GROUP_ID_ID_WIDTH is not 5");
_Static_assert(GBA_GROUP_GROUP_ID_ID_MASK == 0x1FU, "GBA_GROUP_GROUP_ID_ID_MASK is not 0x1FU");
_Static_assert((uint64_t)GBA_GROUP_GROUP_ID_ID_MASK == (((UINT64_C(1) << GBA_GROUP_GROUP_ID_ID_WIDTH) - 1) << GBA_GROUP_GROUP_ID_ID_SHIFT), "GBA_GROUP_GROUP_ID_ID_MASK is not GBA_GROUP_GROUP_ID_ID_WIDTH bits at GBA_GROUP_GROUP_ID_ID_SHIFT");
_Static_assert(((uint64_t)GBA_GROUP_GROUP_ID_ID_MASK >> 32) == 0, "GBA_GROUP_GROUP_ID_ID_MASK is wider than its register");
_Static_assert(GBA_GROUP_MEMBER_COUNT_OFFSET == 0x4U, "GBA_GROUP_MEMBER_COUNT_OFFSET is not 0x4U");
_Static_assert(GBA_GROUP_MEMBER_COUNT_RESET_VALUE == 0x0U, "GBA_GROUP_MEMBER_COUNT_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT == 0, "GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT is not 0");
_Static_assert(GBA_GROUP_MEMBER_COUNT_COUNT_WIDTH == 10, "GBA_GROUP_MEMBER_COUNT_COUNT_WIDTH is not 10");
_Static_assert(GBA_GROUP_MEMBER_COUNT_COUNT_MASK == 0x3FFU, "GBA_GROUP_MEMBER_COUNT_COUNT_MASK is not 0x3FFU");
_Static_assert((uint64_t)GBA_GROUP_MEMBER_COUNT_COUNT_MASK == (((UINT64_C(1) << GBA_GROUP_MEMBER_COUNT_COUNT_WIDTH) - 1) << GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT), "GBA_GROUP_MEMBER_COUNT_COUNT_MASK is not GBA_GROUP_MEMBER_COUNT_COUNT_WIDTH bits at GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT");
_Static_assert(((uint64_t)GBA_GROUP_MEMBER_COUNT_COUNT_MASK >> 32) == 0, "GBA_GROUP_MEMBER_COUNT_COUNT_MASK is wider than its register");
_Static_assert(GBA_GROUP_ARRIVAL_COUNT_OFFSET == 0x8U, "GBA_GROUP_ARRIVAL_COUNT_OFFSET is not 0x8U");
_Static_assert(GBA_GROUP_ARRIVAL_COUNT_RESET_VALUE == 0x0U, "GBA_GROUP_ARRIVAL_COUNT_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT == 0, "GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT is not 0");
_Static_assert(GBA_GROUP_ARRIVAL_COUNT_COUNT_WIDTH == 10, "GBA_GROUP_ARRIVAL_COUNT_COUNT_WIDTH is not 10");
_Static_assert(GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK == 0x3FFU, "GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK is not 0x3FFU");
_Static_assert((uint64_t)GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK == (((UINT64_C(1) << GBA_GROUP_ARRIVAL_COUNT_COUNT_WIDTH) - 1) << GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT), "GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK is not GBA_GROUP_ARRIVAL_COUNT_COUNT_WIDTH bits at GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT");
_Static_assert(((uint64_t)GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK >> 32) == 0, "GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK is wider than its register");
_Static_assert(GBA_GROUP_LOCAL_MEMBER_ID_OFFSET == 0xCU, "GBA_GROUP_LOCAL_MEMBER_ID_OFFSET is not 0xCU");
_Static_assert(GBA_GROUP_LOCAL_MEMBER_ID_RESET_VALUE == 0x0U, "GBA_GROUP_LOCAL_MEMBER_ID_RESET_VALUE is not 0x0U");
_Static_assert(GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT == 0, "GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT is not 0");
_Static_assert(GBA_GROUP_LOCAL_MEMBER_ID_ID_WIDTH == 10, "GBA_GROUP_LOCAL_MEMBER_ID_ID_WIDTH is not 10");
_Static_assert(GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK == 0x3FFU, "GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK is not 0x3FFU");
_Static_assert((uint64_t)GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK == (((UINT64_C(1) << GBA_GROUP_LOCAL_MEMBER_ID_ID_WIDTH) - 1) << GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT), "GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK is not GBA_GROUP_LOCAL_MEMBER_ID_ID_WIDTH bits at GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT");
_Static_assert(((uint64_t)GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK >> 32) == 0, "GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK is wider than its register");
_Static_assert(GBA_GROUP_MEMBER_MASK_OFFSET == 0x10U, "GBA_GROUP_MEMBER_MASK_OFFSET is not 0x10U");
_Static_assert(GBA_GROUP_MEMBER_MASK_RESET_VALUE == 0x0ULL, "GBA_GROUP_MEMBER_MASK_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_MEMBER_MASK_RESET_VALUE) == 8, "GBA_GROUP_MEMBER_MASK_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_MEMBER_MASK_COUNT == 12U, "GBA_GROUP_MEMBER_MASK_COUNT is not 12U");
_Static_assert(GBA_GROUP_MEMBER_MASK_STRIDE == 0x8U, "GBA_GROUP_MEMBER_MASK_STRIDE is not 0x8U");
_Static_assert(GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT == 0, "GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT is not 0");
_Static_assert(GBA_GROUP_MEMBER_MASK_MEMBERS_WIDTH == 64, "GBA_GROUP_MEMBER_MASK_MEMBERS_WIDTH is not 64");
_Static_assert(GBA_GROUP_MEMBER_MASK_MEMBERS_MASK == 0xFFFFFFFFFFFFFFFFULL, "GBA_GROUP_MEMBER_MASK_MEMBERS_MASK is not 0xFFFFFFFFFFFFFFFFULL");
_Static_assert(sizeof(GBA_GROUP_MEMBER_MASK_MEMBERS_MASK) == 8, "GBA_GROUP_MEMBER_MASK_MEMBERS_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_MEMBER_MASK_MEMBERS_MASK == (UINT64_MAX << GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT), "GBA_GROUP_MEMBER_MASK_MEMBERS_MASK is not GBA_GROUP_MEMBER_MASK_MEMBERS_WIDTH bits at GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT");
_Static_assert(GBA_GROUP_RELEASE_ADDR_OFFSET == 0x80U, "GBA_GROUP_RELEASE_ADDR_OFFSET is not 0x80U");
_Static_assert(GBA_GROUP_RELEASE_ADDR_RESET_VALUE == 0x0ULL, "GBA_GROUP_RELEASE_ADDR_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_RELEASE_ADDR_RESET_VALUE) == 8, "GBA_GROUP_RELEASE_ADDR_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT == 0, "GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT is not 0");
_Static_assert(GBA_GROUP_RELEASE_ADDR_ADDR_WIDTH == 64, "GBA_GROUP_RELEASE_ADDR_ADDR_WIDTH is not 64");
_Static_assert(GBA_GROUP_RELEASE_ADDR_ADDR_MASK == 0xFFFFFFFFFFFFFFFFULL, "GBA_GROUP_RELEASE_ADDR_ADDR_MASK is not 0xFFFFFFFFFFFFFFFFULL");
_Static_assert(sizeof(GBA_GROUP_RELEASE_ADDR_ADDR_MASK) == 8, "GBA_GROUP_RELEASE_ADDR_ADDR_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_RELEASE_ADDR_ADDR_MASK == (UINT64_MAX << GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT), "GBA_GROUP_RELEASE_ADDR_ADDR_MASK is not GBA_GROUP_RELEASE_ADDR_ADDR_WIDTH bits at GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT");
_Static_assert(GBA_GROUP_ARRIVED_MASK_OFFSET == 0x100U, "GBA_GROUP_ARRIVED_MASK_OFFSET is not 0x100U");
_Static_assert(GBA_GROUP_ARRIVED_MASK_RESET_VALUE == 0x0ULL, "GBA_GROUP_ARRIVED_MASK_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_ARRIVED_MASK_RESET_VALUE) == 8, "GBA_GROUP_ARRIVED_MASK_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_ARRIVED_MASK_COUNT == 12U, "GBA_GROUP_ARRIVED_MASK_COUNT is not 12U");
_Static_assert(GBA_GROUP_ARRIVED_MASK_STRIDE == 0x8U, "GBA_GROUP_ARRIVED_MASK_STRIDE is not 0x8U");
_Static_assert(GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT == 0, "GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT is not 0");
_Static_assert(GBA_GROUP_ARRIVED_MASK_MEMBERS_WIDTH == 64, "GBA_GROUP_ARRIVED_MASK_MEMBERS_WIDTH is not 64");
_Static_assert(GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK == 0xFFFFFFFFFFFFFFFFULL, "GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK is not 0xFFFFFFFFFFFFFFFFULL");
_Static_assert(sizeof(GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK) == 8, "GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK == (UINT64_MAX << GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT), "GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK is not GBA_GROUP_ARRIVED_MASK_MEMBERS_WIDTH bits at GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT");
_Static_assert(GBA_GROUP_CONTROL_OFFSET == 0x1000U, "GBA_GROUP_CONTROL_OFFSET is not 0x1000U");
_Static_assert(GBA_GROUP_CONTROL_RESET_VALUE == 0x0ULL, "GBA_GROUP_CONTROL_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_CONTROL_RESET_VALUE) == 8, "GBA_GROUP_CONTROL_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_CONTROL_W1_MASK == 0x2ULL, "GBA_GROUP_CONTROL_W1_MASK is not 0x2ULL");
_Static_assert(GBA_GROUP_CONTROL_ENABLE_SHIFT == 0, "GBA_GROUP_CONTROL_ENABLE_SHIFT is not 0");
_Static_assert(GBA_GROUP_CONTROL_ENABLE_WIDTH == 1, "GBA_GROUP_CONTROL_ENABLE_WIDTH is not 1");
_Static_assert(GBA_GROUP_CONTROL_ENABLE_MASK == 0x1ULL, "GBA_GROUP_CONTROL_ENABLE_MASK is not 0x1ULL");
_Static_assert(sizeof(GBA_GROUP_CONTROL_ENABLE_MASK) == 8, "GBA_GROUP_CONTROL_ENABLE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_CONTROL_ENABLE_MASK == (((UINT64_C(1) << GBA_GROUP_CONTROL_ENABLE_WIDTH) - 1) << GBA_GROUP_CONTROL_ENABLE_SHIFT), "GBA_GROUP_CONTROL_ENABLE_MASK is not GBA_GROUP_CONTROL_ENABLE_WIDTH bits at GBA_GROUP_CONTROL_ENABLE_SHIFT");
_Static_assert(GBA_GROUP_CONTROL_RESET_SHIFT == 1, "GBA_GROUP_CONTROL_RESET_SHIFT is not 1");
_Static_assert(GBA_GROUP_CONTROL_RESET_WIDTH == 1, "GBA_GROUP_CONTROL_RESET_WIDTH is not 1");
_Static_assert(GBA_GROUP_CONTROL_RESET_MASK == 0x2ULL, "GBA_GROUP_CONTROL_RESET_MASK is not 0x2ULL");
_Static_assert(sizeof(GBA_GROUP_CONTROL_RESET_MASK) == 8, "GBA_GROUP_CONTROL_RESET_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_CONTROL_RESET_MASK == (((UINT64_C(1) << GBA_GROUP_CONTROL_RESET_WIDTH) - 1) << GBA_GROUP_CONTROL_RESET_SHIFT), "GBA_GROUP_CONTROL_RESET_MASK is not GBA_GROUP_CONTROL_RESET_WIDTH bits at GBA_GROUP_CONTROL_RESET_SHIFT");
_Static_assert(GBA_GROUP_CONTROL_ARM_SHIFT == 2, "GBA_GROUP_CONTROL_ARM_SHIFT is not 2");
_Static_assert(GBA_GROUP_CONTROL_ARM_WIDTH == 1, "GBA_GROUP_CONTROL_ARM_WIDTH is not 1");
_Static_assert(GBA_GROUP_CONTROL_ARM_MASK == 0x4ULL, "GBA_GROUP_CONTROL_ARM_MASK is not 0x4ULL");
_Static_assert(sizeof(GBA_GROUP_CONTROL_ARM_MASK) == 8, "GBA_GROUP_CONTROL_ARM_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_CONTROL_ARM_MASK == (((UINT64_C(1) << GBA_GROUP_CONTROL_ARM_WIDTH) - 1) << GBA_GROUP_CONTROL_ARM_SHIFT), "GBA_GROUP_CONTROL_ARM_MASK is not GBA_GROUP_CONTROL_ARM_WIDTH bits at GBA_GROUP_CONTROL_ARM_SHIFT");
_Static_assert(GBA_GROUP_STATUS_OFFSET == 0x1008U, "GBA_GROUP_STATUS_OFFSET is not 0x1008U");
_Static_assert(GBA_GROUP_STATUS_RESET_VALUE == 0x0ULL, "GBA_GROUP_STATUS_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_RESET_VALUE) == 8, "GBA_GROUP_STATUS_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_STATUS_READY_SHIFT == 0, "GBA_GROUP_STATUS_READY_SHIFT is not 0");
_Static_assert(GBA_GROUP_STATUS_READY_WIDTH == 1, "GBA_GROUP_STATUS_READY_WIDTH is not 1");
_Static_assert(GBA_GROUP_STATUS_READY_MASK == 0x1ULL, "GBA_GROUP_STATUS_READY_MASK is not 0x1ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_READY_MASK) == 8, "GBA_GROUP_STATUS_READY_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_STATUS_READY_MASK == (((UINT64_C(1) << GBA_GROUP_STATUS_READY_WIDTH) - 1) << GBA_GROUP_STATUS_READY_SHIFT), "GBA_GROUP_STATUS_READY_MASK is not GBA_GROUP_STATUS_READY_WIDTH bits at GBA_GROUP_STATUS_READY_SHIFT");
_Static_assert(GBA_GROUP_STATUS_ACTIVE_SHIFT == 1, "GBA_GROUP_STATUS_ACTIVE_SHIFT is not 1");
_Static_assert(GBA_GROUP_STATUS_ACTIVE_WIDTH == 1, "GBA_GROUP_STATUS_ACTIVE_WIDTH is not 1");
_Static_assert(GBA_GROUP_STATUS_ACTIVE_MASK == 0x2ULL, "GBA_GROUP_STATUS_ACTIVE_MASK is not 0x2ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_ACTIVE_MASK) == 8, "GBA_GROUP_STATUS_ACTIVE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_STATUS_ACTIVE_MASK == (((UINT64_C(1) << GBA_GROUP_STATUS_ACTIVE_WIDTH) - 1) << GBA_GROUP_STATUS_ACTIVE_SHIFT), "GBA_GROUP_STATUS_ACTIVE_MASK is not GBA_GROUP_STATUS_ACTIVE_WIDTH bits at GBA_GROUP_STATUS_ACTIVE_SHIFT");
_Static_assert(GBA_GROUP_STATUS_COMPLETE_SHIFT == 2, "GBA_GROUP_STATUS_COMPLETE_SHIFT is not 2");
_Static_assert(GBA_GROUP_STATUS_COMPLETE_WIDTH == 1, "GBA_GROUP_STATUS_COMPLETE_WIDTH is not 1");
_Static_assert(GBA_GROUP_STATUS_COMPLETE_MASK == 0x4ULL, "GBA_GROUP_STATUS_COMPLETE_MASK is not 0x4ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_COMPLETE_MASK) == 8, "GBA_GROUP_STATUS_COMPLETE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_STATUS_COMPLETE_MASK == (((UINT64_C(1) << GBA_GROUP_STATUS_COMPLETE_WIDTH) - 1) << GBA_GROUP_STATUS_COMPLETE_SHIFT), "GBA_GROUP_STATUS_COMPLETE_MASK is not GBA_GROUP_STATUS_COMPLETE_WIDTH bits at GBA_GROUP_STATUS_COMPLETE_SHIFT");
_Static_assert(GBA_GROUP_STATUS_ERROR_SHIFT == 3, "GBA_GROUP_STATUS_ERROR_SHIFT is not 3");
_Static_assert(GBA_GROUP_STATUS_ERROR_WIDTH == 1, "GBA_GROUP_STATUS_ERROR_WIDTH is not 1");
_Static_assert(GBA_GROUP_STATUS_ERROR_MASK == 0x8ULL, "GBA_GROUP_STATUS_ERROR_MASK is not 0x8ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_ERROR_MASK) == 8, "GBA_GROUP_STATUS_ERROR_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_STATUS_ERROR_MASK == (((UINT64_C(1) << GBA_GROUP_STATUS_ERROR_WIDTH) - 1) << GBA_GROUP_STATUS_ERROR_SHIFT), "GBA_GROUP_STATUS_ERROR_MASK is not GBA_GROUP_STATUS_ERROR_WIDTH bits at GBA_GROUP_STATUS_ERROR_SHIFT");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_SHIFT == 8, "GBA_GROUP_STATUS_ERROR_CODE_SHIFT is not 8");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_WIDTH == 8, "GBA_GROUP_STATUS_ERROR_CODE_WIDTH is not 8");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_MASK == 0xFF00ULL, "GBA_GROUP_STATUS_ERROR_CODE_MASK is not 0xFF00ULL");
_Static_assert(sizeof(GBA_GROUP_STATUS_ERROR_CODE_MASK) == 8, "GBA_GROUP_STATUS_ERROR_CODE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK == (((UINT64_C(1) << GBA_GROUP_STATUS_ERROR_CODE_WIDTH) - 1) << GBA_GROUP_STATUS_ERROR_CODE_SHIFT), "GBA_GROUP_STATUS_ERROR_CODE_MASK is not GBA_GROUP_STATUS_ERROR_CODE_WIDTH bits at GBA_GROUP_STATUS_ERROR_CODE_SHIFT");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_NONE == 0x0ULL, "GBA_GROUP_STATUS_ERROR_CODE_NONE is not 0x0ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_NONE << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_NONE does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH == 0x1ULL, "GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH is not 0x1ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH == 0x2ULL, "GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH is not 0x2ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER == 0x3ULL, "GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER is not 0x3ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR == 0x4ULL, "GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR is not 0x4ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT == 0x5ULL, "GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT is not 0x5ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT does not fit its field");
_Static_assert(GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY == 0x6ULL, "GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY is not 0x6ULL");
_Static_assert((((uint64_t)GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY << GBA_GROUP_STATUS_ERROR_CODE_SHIFT) & ~(uint64_t)GBA_GROUP_STATUS_ERROR_CODE_MASK) == 0, "GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY does not fit its field");
_Static_assert(GBA_GROUP_ARRIVAL_OFFSET == 0x1010U, "GBA_GROUP_ARRIVAL_OFFSET is not 0x1010U");
_Static_assert(GBA_GROUP_ARRIVAL_RESET_VALUE == 0x0ULL, "GBA_GROUP_ARRIVAL_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_ARRIVAL_RESET_VALUE) == 8, "GBA_GROUP_ARRIVAL_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT == 0, "GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT is not 0");
_Static_assert(GBA_GROUP_ARRIVAL_SEQUENCE_WIDTH == 32, "GBA_GROUP_ARRIVAL_SEQUENCE_WIDTH is not 32");
_Static_assert(GBA_GROUP_ARRIVAL_SEQUENCE_MASK == 0xFFFFFFFFULL, "GBA_GROUP_ARRIVAL_SEQUENCE_MASK is not 0xFFFFFFFFULL");
_Static_assert(sizeof(GBA_GROUP_ARRIVAL_SEQUENCE_MASK) == 8, "GBA_GROUP_ARRIVAL_SEQUENCE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_ARRIVAL_SEQUENCE_MASK == (((UINT64_C(1) << GBA_GROUP_ARRIVAL_SEQUENCE_WIDTH) - 1) << GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT), "GBA_GROUP_ARRIVAL_SEQUENCE_MASK is not GBA_GROUP_ARRIVAL_SEQUENCE_WIDTH bits at GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT");
_Static_assert(GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT == 32, "GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT is not 32");
_Static_assert(GBA_GROUP_ARRIVAL_MEMBER_ID_WIDTH == 32, "GBA_GROUP_ARRIVAL_MEMBER_ID_WIDTH is not 32");
_Static_assert(GBA_GROUP_ARRIVAL_MEMBER_ID_MASK == 0xFFFFFFFF00000000ULL, "GBA_GROUP_ARRIVAL_MEMBER_ID_MASK is not 0xFFFFFFFF00000000ULL");
_Static_assert(sizeof(GBA_GROUP_ARRIVAL_MEMBER_ID_MASK) == 8, "GBA_GROUP_ARRIVAL_MEMBER_ID_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_ARRIVAL_MEMBER_ID_MASK == (((UINT64_C(1) << GBA_GROUP_ARRIVAL_MEMBER_ID_WIDTH) - 1) << GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT), "GBA_GROUP_ARRIVAL_MEMBER_ID_MASK is not GBA_GROUP_ARRIVAL_MEMBER_ID_WIDTH bits at GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT");
_Static_assert(GBA_GROUP_RELEASE_SEQ_OFFSET == 0x1018U, "GBA_GROUP_RELEASE_SEQ_OFFSET is not 0x1018U");
_Static_assert(GBA_GROUP_RELEASE_SEQ_RESET_VALUE == 0x0ULL, "GBA_GROUP_RELEASE_SEQ_RESET_VALUE is not 0x0ULL");
_Static_assert(sizeof(GBA_GROUP_RELEASE_SEQ_RESET_VALUE) == 8, "GBA_GROUP_RELEASE_SEQ_RESET_VALUE of a 64-bit register is narrower");
_Static_assert(GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT == 0, "GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT is not 0");
_Static_assert(GBA_GROUP_RELEASE_SEQ_SEQUENCE_WIDTH == 32, "GBA_GROUP_RELEASE_SEQ_SEQUENCE_WIDTH is not 32");
_Static_assert(GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK == 0xFFFFFFFFULL, "GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK is not 0xFFFFFFFFULL");
_Static_assert(sizeof(GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK) == 8, "GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK of a 64-bit register is narrower");
_Static_assert((uint64_t)GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK == (((UINT64_C(1) << GBA_GROUP_RELEASE_SEQ_SEQUENCE_WIDTH) - 1) << GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT), "GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK is not GBA_GROUP_RELEASE_SEQ_SEQUENCE_WIDTH bits at GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT");

/* A buffer laid out like the device window (GBA_WINDOW_SIZE bytes). */
static _Alignas(8) unsigned char window[GBA_WINDOW_SIZE];

int main(void)
{
    unsigned long checks = 0, failures = 0;
    {
        static const unsigned char bytes[4] = {0x01, 0x2a, 0x53, 0x7c};
        memset(window, 0, sizeof window);
        CHECK("gba_global_device_id(window) is at 0x0", (volatile unsigned char *)gba_global_device_id_ptr(window) == (volatile unsigned char *)window + 0U);
        memcpy(window + 0U, bytes, 4);
        CHECK("gba_global_device_id(window) read", gba_global_device_id_read(window) == 0x7C532A01U);
    }
    CHECK("gba_global_device_id_id_get", gba_global_device_id_id_get(0xFFFFFFFFU) == 0xFFFFFFFFU);
    CHECK("gba_global_device_id_id_get ignores its neighbours", gba_global_device_id_id_get(0x0U) == 0);
    {
        static const unsigned char bytes[4] = {0x1e, 0x47, 0x70, 0x99};
        memset(window, 0, sizeof window);
        CHECK("gba_global_version(window) is at 0x4", (volatile unsigned char *)gba_global_version_ptr(window) == (volatile unsigned char *)window + 4U);
        memcpy(window + 4U, bytes, 4);
        CHECK("gba_global_version(window) read", gba_global_version_read(window) == 0x9970471EU);
    }
    CHECK("gba_global_version_major_get", gba_global_version_major_get(0xFFFFFFFFU) == 0xFFFFU);
    CHECK("gba_global_version_major_get ignores its neighbours", gba_global_version_major_get(0xFFFFU) == 0);
    CHECK("gba_global_version_minor_get", gba_global_version_minor_get(0xFFFFFFFFU) == 0xFFFFU);
    CHECK("gba_global_version_minor_get ignores its neighbours", gba_global_version_minor_get(0xFFFF0000U) == 0);
    {
        static const unsigned char bytes[4] = {0x3b, 0x64, 0x8d, 0xb6};
        memset(window, 0, sizeof window);
        CHECK("gba_global_caps(window) is at 0x8", (volatile unsigned char *)gba_global_caps_ptr(window) == (volatile unsigned char *)window + 8U);
        memcpy(window + 8U, bytes, 4);
        CHECK("gba_global_caps(window) read", gba_global_caps_read(window) == 0xB68D643BU);
    }
    CHECK("gba_global_caps_max_groups_get", gba_global_caps_max_groups_get(0xFFFFFFFFU) == 0xFFU);
    CHECK("gba_global_caps_max_groups_get ignores its neighbours", gba_global_caps_max_groups_get(0xFFFFFF00U) == 0);
    CHECK("gba_global_caps_max_members_get", gba_global_caps_max_members_get(0xFFFFFFFFU) == 0xFFFU);
    CHECK("gba_global_caps_max_members_get ignores its neighbours", gba_global_caps_max_members_get(0xFFF000FFU) == 0);
    {
        static const unsigned char bytes[4] = {0x58, 0x81, 0xaa, 0xd3};
        memset(window, 0, sizeof window);
        CHECK("gba_global_port_id(window) is at 0xc", (volatile unsigned char *)gba_global_port_id_ptr(window) == (volatile unsigned char *)window + 12U);
        memcpy(window + 12U, bytes, 4);
        CHECK("gba_global_port_id(window) read", gba_global_port_id_read(window) == 0xD3AA8158U);
    }
    CHECK("gba_global_port_id_port_get", gba_global_port_id_port_get(0xFFFFFFFFU) == 0xFFFU);
    CHECK("gba_global_port_id_port_get ignores its neighbours", gba_global_port_id_port_get(0xFFFFF000U) == 0);
    {
        static const unsigned char bytes[4] = {0x75, 0x9e, 0xc7, 0xf0};
        memset(window, 0, sizeof window);
        CHECK("gba_global_group_enabled(window) is at 0x10", (volatile unsigned char *)gba_global_group_enabled_ptr(window) == (volatile unsigned char *)window + 16U);
        memcpy(window + 16U, bytes, 4);
        CHECK("gba_global_group_enabled(window) read", gba_global_group_enabled_read(window) == 0xF0C79E75U);
    }
    CHECK("gba_global_group_enabled_groups_get", gba_global_group_enabled_groups_get(0xFFFFFFFFU) == 0xFFFFFFFFU);
    CHECK("gba_global_group_enabled_groups_get ignores its neighbours", gba_global_group_enabled_groups_get(0x0U) == 0);
    {
        static const unsigned char bytes[4] = {0x92, 0xbb, 0xe4, 0x0e};
        memset(window, 0, sizeof window);
        CHECK("gba_global_groups_busy(window) is at 0x14", (volatile unsigned char *)gba_global_groups_busy_ptr(window) == (volatile unsigned char *)window + 20U);
        memcpy(window + 20U, bytes, 4);
        CHECK("gba_global_groups_busy(window) read", gba_global_groups_busy_read(window) == 0xEE4BB92U);
    }
    CHECK("gba_global_groups_busy_groups_get", gba_global_groups_busy_groups_get(0xFFFFFFFFU) == 0xFFFFFFFFU);
    CHECK("gba_global_groups_busy_groups_get ignores its neighbours", gba_global_groups_busy_groups_get(0x0U) == 0);
    {
        static const unsigned char bytes[8] = {0xaf, 0xd8, 0x02, 0x2b, 0x54, 0x7d, 0xa6, 0xcf};
        memset(window, 0, sizeof window);
        CHECK("gba_global_barriers_completed(window) is at 0x18", (volatile unsigned char *)gba_global_barriers_completed_ptr(window) == (volatile unsigned char *)window + 24U);
        memcpy(window + 24U, bytes, 8);
        CHECK("gba_global_barriers_completed(window) read", gba_global_barriers_completed_read(window) == 0xCFA67D542B02D8AFULL);
    }
    CHECK("gba_global_barriers_completed_count_get", gba_global_barriers_completed_count_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_global_barriers_completed_count_get ignores its neighbours", gba_global_barriers_completed_count_get(0x0ULL) == 0);
    {
        static const unsigned char bytes[4] = {0x48, 0x71, 0x9a, 0xc3};
        memset(window, 0, sizeof window);
        CHECK("gba_group_group_id(window, 0) is at 0x10000", (volatile unsigned char *)gba_group_group_id_ptr(window, 0) == (volatile unsigned char *)window + 65536U);
        memcpy(window + 65536U, bytes, 4);
        CHECK("gba_group_group_id(window, 0) read", gba_group_group_id_read(window, 0) == 0xC39A7148U);
    }
    {
        static const unsigned char bytes[4] = {0x7c, 0xa5, 0xce, 0xf7};
        memset(window, 0, sizeof window);
        CHECK("gba_group_group_id(window, 31) is at 0x4e000", (volatile unsigned char *)gba_group_group_id_ptr(window, 31) == (volatile unsigned char *)window + 319488U);
        memcpy(window + 319488U, bytes, 4);
        CHECK("gba_group_group_id(window, 31) read", gba_group_group_id_read(window, 31) == 0xF7CEA57CU);
    }
    CHECK("gba_group_group_id_id_get", gba_group_group_id_id_get(0xFFFFFFFFU) == 0x1FU);
    CHECK("gba_group_group_id_id_get ignores its neighbours", gba_group_group_id_id_get(0xFFFFFFE0U) == 0);
    {
        static const unsigned char bytes[4] = {0x65, 0x8e, 0xb7, 0xe0};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_count(window, 0) is at 0x10004", (volatile unsigned char *)gba_group_member_count_ptr(window, 0) == (volatile unsigned char *)window + 65540U);
        gba_group_member_count_write(window, 0, 0xE0B78E65U);
        CHECK("gba_group_member_count(window, 0) write lands at 0x10004", memcmp(window + 65540U, bytes, 4) == 0);
        CHECK("gba_group_member_count(window, 0) write stays inside", window[65540U - 1] == 0);
        CHECK("gba_group_member_count(window, 0) write stays inside", window[65544U] == 0);
        CHECK("gba_group_member_count(window, 0) read", gba_group_member_count_read(window, 0) == 0xE0B78E65U);
    }
    {
        static const unsigned char bytes[4] = {0x99, 0xc2, 0xeb, 0x15};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_count(window, 31) is at 0x4e004", (volatile unsigned char *)gba_group_member_count_ptr(window, 31) == (volatile unsigned char *)window + 319492U);
        gba_group_member_count_write(window, 31, 0x15EBC299U);
        CHECK("gba_group_member_count(window, 31) write lands at 0x4e004", memcmp(window + 319492U, bytes, 4) == 0);
        CHECK("gba_group_member_count(window, 31) write stays inside", window[319492U - 1] == 0);
        CHECK("gba_group_member_count(window, 31) write stays inside", window[319496U] == 0);
        CHECK("gba_group_member_count(window, 31) read", gba_group_member_count_read(window, 31) == 0x15EBC299U);
    }
    CHECK("gba_group_member_count_count_get", gba_group_member_count_count_get(0xFFFFFFFFU) == 0x3FFU);
    CHECK("gba_group_member_count_count_get ignores its neighbours", gba_group_member_count_count_get(0xFFFFFC00U) == 0);
    CHECK("gba_group_member_count_count_set", gba_group_member_count_count_set(0, 0x3FFU) == 0x3FFU);
    CHECK("gba_group_member_count_count_set clears", gba_group_member_count_count_set(0xFFFFFFFFU, 0) == 0xFFFFFC00U);
    CHECK("gba_group_member_count_count_set drops excess bits", gba_group_member_count_count_set(0, 0x400U) == 0);
    {
        static const unsigned char bytes[4] = {0x82, 0xab, 0xd4, 0xfd};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrival_count(window, 0) is at 0x10008", (volatile unsigned char *)gba_group_arrival_count_ptr(window, 0) == (volatile unsigned char *)window + 65544U);
        memcpy(window + 65544U, bytes, 4);
        CHECK("gba_group_arrival_count(window, 0) read", gba_group_arrival_count_read(window, 0) == 0xFDD4AB82U);
    }
    {
        static const unsigned char bytes[4] = {0xb6, 0xdf, 0x09, 0x32};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrival_count(window, 31) is at 0x4e008", (volatile unsigned char *)gba_group_arrival_count_ptr(window, 31) == (volatile unsigned char *)window + 319496U);
        memcpy(window + 319496U, bytes, 4);
        CHECK("gba_group_arrival_count(window, 31) read", gba_group_arrival_count_read(window, 31) == 0x3209DFB6U);
    }
    CHECK("gba_group_arrival_count_count_get", gba_group_arrival_count_count_get(0xFFFFFFFFU) == 0x3FFU);
    CHECK("gba_group_arrival_count_count_get ignores its neighbours", gba_group_arrival_count_count_get(0xFFFFFC00U) == 0);
    {
        static const unsigned char bytes[4] = {0x9f, 0xc8, 0xf1, 0x1b};
        memset(window, 0, sizeof window);
        CHECK("gba_group_local_member_id(window, 0) is at 0x1000c", (volatile unsigned char *)gba_group_local_member_id_ptr(window, 0) == (volatile unsigned char *)window + 65548U);
        gba_group_local_member_id_write(window, 0, 0x1BF1C89FU);
        CHECK("gba_group_local_member_id(window, 0) write lands at 0x1000c", memcmp(window + 65548U, bytes, 4) == 0);
        CHECK("gba_group_local_member_id(window, 0) write stays inside", window[65548U - 1] == 0);
        CHECK("gba_group_local_member_id(window, 0) write stays inside", window[65552U] == 0);
        CHECK("gba_group_local_member_id(window, 0) read", gba_group_local_member_id_read(window, 0) == 0x1BF1C89FU);
    }
    {
        static const unsigned char bytes[4] = {0xd3, 0xfc, 0x26, 0x4f};
        memset(window, 0, sizeof window);
        CHECK("gba_group_local_member_id(window, 31) is at 0x4e00c", (volatile unsigned char *)gba_group_local_member_id_ptr(window, 31) == (volatile unsigned char *)window + 319500U);
        gba_group_local_member_id_write(window, 31, 0x4F26FCD3U);
        CHECK("gba_group_local_member_id(window, 31) write lands at 0x4e00c", memcmp(window + 319500U, bytes, 4) == 0);
        CHECK("gba_group_local_member_id(window, 31) write stays inside", window[319500U - 1] == 0);
        CHECK("gba_group_local_member_id(window, 31) write stays inside", window[319504U] == 0);
        CHECK("gba_group_local_member_id(window, 31) read", gba_group_local_member_id_read(window, 31) == 0x4F26FCD3U);
    }
    CHECK("gba_group_local_member_id_id_get", gba_group_local_member_id_id_get(0xFFFFFFFFU) == 0x3FFU);
    CHECK("gba_group_local_member_id_id_get ignores its neighbours", gba_group_local_member_id_id_get(0xFFFFFC00U) == 0);
    CHECK("gba_group_local_member_id_id_set", gba_group_local_member_id_id_set(0, 0x3FFU) == 0x3FFU);
    CHECK("gba_group_local_member_id_id_set clears", gba_group_local_member_id_id_set(0xFFFFFFFFU, 0) == 0xFFFFFC00U);
    CHECK("gba_group_local_member_id_id_set drops excess bits", gba_group_local_member_id_id_set(0, 0x400U) == 0);
    {
        static const unsigned char bytes[8] = {0xbc, 0xe5, 0x0f, 0x38, 0x61, 0x8a, 0xb3, 0xdc};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_mask(window, 0, 0) is at 0x10010", (volatile unsigned char *)gba_group_member_mask_ptr(window, 0, 0) == (volatile unsigned char *)window + 65552U);
        gba_group_member_mask_write(window, 0, 0, 0xDCB38A61380FE5BCULL);
        CHECK("gba_group_member_mask(window, 0, 0) write lands at 0x10010", memcmp(window + 65552U, bytes, 8) == 0);
        CHECK("gba_group_member_mask(window, 0, 0) write stays inside", window[65552U - 1] == 0);
        CHECK("gba_group_member_mask(window, 0, 0) write stays inside", window[65560U] == 0);
        CHECK("gba_group_member_mask(window, 0, 0) read", gba_group_member_mask_read(window, 0, 0) == 0xDCB38A61380FE5BCULL);
    }
    {
        static const unsigned char bytes[8] = {0x3d, 0x66, 0x8f, 0xb8, 0xe1, 0x0b, 0x34, 0x5d};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_mask(window, 0, 11) is at 0x10068", (volatile unsigned char *)gba_group_member_mask_ptr(window, 0, 11) == (volatile unsigned char *)window + 65640U);
        gba_group_member_mask_write(window, 0, 11, 0x5D340BE1B88F663DULL);
        CHECK("gba_group_member_mask(window, 0, 11) write lands at 0x10068", memcmp(window + 65640U, bytes, 8) == 0);
        CHECK("gba_group_member_mask(window, 0, 11) write stays inside", window[65640U - 1] == 0);
        CHECK("gba_group_member_mask(window, 0, 11) write stays inside", window[65648U] == 0);
        CHECK("gba_group_member_mask(window, 0, 11) read", gba_group_member_mask_read(window, 0, 11) == 0x5D340BE1B88F663DULL);
    }
    {
        static const unsigned char bytes[8] = {0xf0, 0x1a, 0x43, 0x6c, 0x95, 0xbe, 0xe7, 0x11};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_mask(window, 31, 0) is at 0x4e010", (volatile unsigned char *)gba_group_member_mask_ptr(window, 31, 0) == (volatile unsigned char *)window + 319504U);
        gba_group_member_mask_write(window, 31, 0, 0x11E7BE956C431AF0ULL);
        CHECK("gba_group_member_mask(window, 31, 0) write lands at 0x4e010", memcmp(window + 319504U, bytes, 8) == 0);
        CHECK("gba_group_member_mask(window, 31, 0) write stays inside", window[319504U - 1] == 0);
        CHECK("gba_group_member_mask(window, 31, 0) write stays inside", window[319512U] == 0);
        CHECK("gba_group_member_mask(window, 31, 0) read", gba_group_member_mask_read(window, 31, 0) == 0x11E7BE956C431AF0ULL);
    }
    {
        static const unsigned char bytes[8] = {0x71, 0x9a, 0xc3, 0xec, 0x16, 0x3f, 0x68, 0x91};
        memset(window, 0, sizeof window);
        CHECK("gba_group_member_mask(window, 31, 11) is at 0x4e068", (volatile unsigned char *)gba_group_member_mask_ptr(window, 31, 11) == (volatile unsigned char *)window + 319592U);
        gba_group_member_mask_write(window, 31, 11, 0x91683F16ECC39A71ULL);
        CHECK("gba_group_member_mask(window, 31, 11) write lands at 0x4e068", memcmp(window + 319592U, bytes, 8) == 0);
        CHECK("gba_group_member_mask(window, 31, 11) write stays inside", window[319592U - 1] == 0);
        CHECK("gba_group_member_mask(window, 31, 11) write stays inside", window[319600U] == 0);
        CHECK("gba_group_member_mask(window, 31, 11) read", gba_group_member_mask_read(window, 31, 11) == 0x91683F16ECC39A71ULL);
    }
    CHECK("gba_group_member_mask_members_get", gba_group_member_mask_members_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_group_member_mask_members_get ignores its neighbours", gba_group_member_mask_members_get(0x0ULL) == 0);
    CHECK("gba_group_member_mask_members_set", gba_group_member_mask_members_set(0, 0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_group_member_mask_members_set clears", gba_group_member_mask_members_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0x0ULL);
    {
        static const unsigned char bytes[8] = {0xeb, 0x15, 0x3e, 0x67, 0x90, 0xb9, 0xe2, 0x0c};
        memset(window, 0, sizeof window);
        CHECK("gba_group_release_addr(window, 0) is at 0x10080", (volatile unsigned char *)gba_group_release_addr_ptr(window, 0) == (volatile unsigned char *)window + 65664U);
        gba_group_release_addr_write(window, 0, 0xCE2B990673E15EBULL);
        CHECK("gba_group_release_addr(window, 0) write lands at 0x10080", memcmp(window + 65664U, bytes, 8) == 0);
        CHECK("gba_group_release_addr(window, 0) write stays inside", window[65664U - 1] == 0);
        CHECK("gba_group_release_addr(window, 0) write stays inside", window[65672U] == 0);
        CHECK("gba_group_release_addr(window, 0) read", gba_group_release_addr_read(window, 0) == 0xCE2B990673E15EBULL);
    }
    {
        static const unsigned char bytes[8] = {0x20, 0x49, 0x72, 0x9b, 0xc4, 0xed, 0x17, 0x40};
        memset(window, 0, sizeof window);
        CHECK("gba_group_release_addr(window, 31) is at 0x4e080", (volatile unsigned char *)gba_group_release_addr_ptr(window, 31) == (volatile unsigned char *)window + 319616U);
        gba_group_release_addr_write(window, 31, 0x4017EDC49B724920ULL);
        CHECK("gba_group_release_addr(window, 31) write lands at 0x4e080", memcmp(window + 319616U, bytes, 8) == 0);
        CHECK("gba_group_release_addr(window, 31) write stays inside", window[319616U - 1] == 0);
        CHECK("gba_group_release_addr(window, 31) write stays inside", window[319624U] == 0);
        CHECK("gba_group_release_addr(window, 31) read", gba_group_release_addr_read(window, 31) == 0x4017EDC49B724920ULL);
    }
    CHECK("gba_group_release_addr_addr_get", gba_group_release_addr_addr_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_group_release_addr_addr_get ignores its neighbours", gba_group_release_addr_addr_get(0x0ULL) == 0);
    CHECK("gba_group_release_addr_addr_set", gba_group_release_addr_addr_set(0, 0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_group_release_addr_addr_set clears", gba_group_release_addr_addr_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0x0ULL);
    {
        static const unsigned char bytes[8] = {0x8f, 0xb8, 0xe1, 0x0b, 0x34, 0x5d, 0x86, 0xaf};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrived_mask(window, 0, 0) is at 0x10100", (volatile unsigned char *)gba_group_arrived_mask_ptr(window, 0, 0) == (volatile unsigned char *)window + 65792U);
        memcpy(window + 65792U, bytes, 8);
        CHECK("gba_group_arrived_mask(window, 0, 0) read", gba_group_arrived_mask_read(window, 0, 0) == 0xAF865D340BE1B88FULL);
    }
    {
        static const unsigned char bytes[8] = {0x10, 0x39, 0x62, 0x8b, 0xb4, 0xdd, 0x07, 0x30};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrived_mask(window, 0, 11) is at 0x10158", (volatile unsigned char *)gba_group_arrived_mask_ptr(window, 0, 11) == (volatile unsigned char *)window + 65880U);
        memcpy(window + 65880U, bytes, 8);
        CHECK("gba_group_arrived_mask(window, 0, 11) read", gba_group_arrived_mask_read(window, 0, 11) == 0x3007DDB48B623910ULL);
    }
    {
        static const unsigned char bytes[8] = {0xc3, 0xec, 0x16, 0x3f, 0x68, 0x91, 0xba, 0xe3};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrived_mask(window, 31, 0) is at 0x4e100", (volatile unsigned char *)gba_group_arrived_mask_ptr(window, 31, 0) == (volatile unsigned char *)window + 319744U);
        memcpy(window + 319744U, bytes, 8);
        CHECK("gba_group_arrived_mask(window, 31, 0) read", gba_group_arrived_mask_read(window, 31, 0) == 0xE3BA91683F16ECC3ULL);
    }
    {
        static const unsigned char bytes[8] = {0x44, 0x6d, 0x96, 0xbf, 0xe8, 0x12, 0x3b, 0x64};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrived_mask(window, 31, 11) is at 0x4e158", (volatile unsigned char *)gba_group_arrived_mask_ptr(window, 31, 11) == (volatile unsigned char *)window + 319832U);
        memcpy(window + 319832U, bytes, 8);
        CHECK("gba_group_arrived_mask(window, 31, 11) read", gba_group_arrived_mask_read(window, 31, 11) == 0x643B12E8BF966D44ULL);
    }
    CHECK("gba_group_arrived_mask_members_get", gba_group_arrived_mask_members_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFFFFFFFFFULL);
    CHECK("gba_group_arrived_mask_members_get ignores its neighbours", gba_group_arrived_mask_members_get(0x0ULL) == 0);
    {
        static const unsigned char bytes[8] = {0xbc, 0xe5, 0x0f, 0x38, 0x61, 0x8a, 0xb3, 0xdc};
        memset(window, 0, sizeof window);
        CHECK("gba_group_control(window, 0) is at 0x11000", (volatile unsigned char *)gba_group_control_ptr(window, 0) == (volatile unsigned char *)window + 69632U);
        gba_group_control_write(window, 0, 0xDCB38A61380FE5BCULL);
        CHECK("gba_group_control(window, 0) write lands at 0x11000", memcmp(window + 69632U, bytes, 8) == 0);
        CHECK("gba_group_control(window, 0) write stays inside", window[69632U - 1] == 0);
        CHECK("gba_group_control(window, 0) write stays inside", window[69640U] == 0);
        CHECK("gba_group_control(window, 0) read", gba_group_control_read(window, 0) == 0xDCB38A61380FE5BCULL);
    }
    {
        static const unsigned char bytes[8] = {0xf0, 0x1a, 0x43, 0x6c, 0x95, 0xbe, 0xe7, 0x11};
        memset(window, 0, sizeof window);
        CHECK("gba_group_control(window, 31) is at 0x4f000", (volatile unsigned char *)gba_group_control_ptr(window, 31) == (volatile unsigned char *)window + 323584U);
        gba_group_control_write(window, 31, 0x11E7BE956C431AF0ULL);
        CHECK("gba_group_control(window, 31) write lands at 0x4f000", memcmp(window + 323584U, bytes, 8) == 0);
        CHECK("gba_group_control(window, 31) write stays inside", window[323584U - 1] == 0);
        CHECK("gba_group_control(window, 31) write stays inside", window[323592U] == 0);
        CHECK("gba_group_control(window, 31) read", gba_group_control_read(window, 31) == 0x11E7BE956C431AF0ULL);
    }
    CHECK("gba_group_control_enable_get", gba_group_control_enable_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_control_enable_get ignores its neighbours", gba_group_control_enable_get(0xFFFFFFFFFFFFFFFEULL) == 0);
    CHECK("gba_group_control_enable_set", gba_group_control_enable_set(0, 0x1ULL) == 0x1ULL);
    CHECK("gba_group_control_enable_set clears", gba_group_control_enable_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0xFFFFFFFFFFFFFFFEULL);
    CHECK("gba_group_control_enable_set drops excess bits", gba_group_control_enable_set(0, 0x2ULL) == 0);
    CHECK("gba_group_control_reset_get", gba_group_control_reset_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_control_reset_get ignores its neighbours", gba_group_control_reset_get(0xFFFFFFFFFFFFFFFDULL) == 0);
    CHECK("gba_group_control_reset_set", gba_group_control_reset_set(0, 0x1ULL) == 0x2ULL);
    CHECK("gba_group_control_reset_set clears", gba_group_control_reset_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0xFFFFFFFFFFFFFFFDULL);
    CHECK("gba_group_control_reset_set drops excess bits", gba_group_control_reset_set(0, 0x2ULL) == 0);
    CHECK("gba_group_control_arm_get", gba_group_control_arm_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_control_arm_get ignores its neighbours", gba_group_control_arm_get(0xFFFFFFFFFFFFFFFBULL) == 0);
    CHECK("gba_group_control_arm_set", gba_group_control_arm_set(0, 0x1ULL) == 0x4ULL);
    CHECK("gba_group_control_arm_set clears", gba_group_control_arm_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0xFFFFFFFFFFFFFFFBULL);
    CHECK("gba_group_control_arm_set drops excess bits", gba_group_control_arm_set(0, 0x2ULL) == 0);
    {
        static const unsigned char bytes[8] = {0xf6, 0x20, 0x49, 0x72, 0x9b, 0xc4, 0xed, 0x17};
        memset(window, 0, sizeof window);
        CHECK("gba_group_status(window, 0) is at 0x11008", (volatile unsigned char *)gba_group_status_ptr(window, 0) == (volatile unsigned char *)window + 69640U);
        memcpy(window + 69640U, bytes, 8);
        CHECK("gba_group_status(window, 0) read", gba_group_status_read(window, 0) == 0x17EDC49B724920F6ULL);
    }
    {
        static const unsigned char bytes[8] = {0x2b, 0x54, 0x7d, 0xa6, 0xcf, 0xf8, 0x22, 0x4b};
        memset(window, 0, sizeof window);
        CHECK("gba_group_status(window, 31) is at 0x4f008", (volatile unsigned char *)gba_group_status_ptr(window, 31) == (volatile unsigned char *)window + 323592U);
        memcpy(window + 323592U, bytes, 8);
        CHECK("gba_group_status(window, 31) read", gba_group_status_read(window, 31) == 0x4B22F8CFA67D542BULL);
    }
    CHECK("gba_group_status_ready_get", gba_group_status_ready_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_status_ready_get ignores its neighbours", gba_group_status_ready_get(0xFFFFFFFFFFFFFFFEULL) == 0);
    CHECK("gba_group_status_active_get", gba_group_status_active_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_status_active_get ignores its neighbours", gba_group_status_active_get(0xFFFFFFFFFFFFFFFDULL) == 0);
    CHECK("gba_group_status_complete_get", gba_group_status_complete_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_status_complete_get ignores its neighbours", gba_group_status_complete_get(0xFFFFFFFFFFFFFFFBULL) == 0);
    CHECK("gba_group_status_error_get", gba_group_status_error_get(0xFFFFFFFFFFFFFFFFULL) == 0x1ULL);
    CHECK("gba_group_status_error_get ignores its neighbours", gba_group_status_error_get(0xFFFFFFFFFFFFFFF7ULL) == 0);
    CHECK("gba_group_status_error_code_get", gba_group_status_error_code_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFULL);
    CHECK("gba_group_status_error_code_get ignores its neighbours", gba_group_status_error_code_get(0xFFFFFFFFFFFF00FFULL) == 0);
    {
        static const unsigned char bytes[8] = {0x31, 0x5a, 0x83, 0xac, 0xd5, 0xfe, 0x28, 0x51};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrival(window, 0) is at 0x11010", (volatile unsigned char *)gba_group_arrival_ptr(window, 0) == (volatile unsigned char *)window + 69648U);
        gba_group_arrival_write(window, 0, 0x5128FED5AC835A31ULL);
        CHECK("gba_group_arrival(window, 0) write lands at 0x11010", memcmp(window + 69648U, bytes, 8) == 0);
        CHECK("gba_group_arrival(window, 0) write stays inside", window[69648U - 1] == 0);
        CHECK("gba_group_arrival(window, 0) write stays inside", window[69656U] == 0);
    }
    {
        static const unsigned char bytes[8] = {0x65, 0x8e, 0xb7, 0xe0, 0x0a, 0x33, 0x5c, 0x85};
        memset(window, 0, sizeof window);
        CHECK("gba_group_arrival(window, 31) is at 0x4f010", (volatile unsigned char *)gba_group_arrival_ptr(window, 31) == (volatile unsigned char *)window + 323600U);
        gba_group_arrival_write(window, 31, 0x855C330AE0B78E65ULL);
        CHECK("gba_group_arrival(window, 31) write lands at 0x4f010", memcmp(window + 323600U, bytes, 8) == 0);
        CHECK("gba_group_arrival(window, 31) write stays inside", window[323600U - 1] == 0);
        CHECK("gba_group_arrival(window, 31) write stays inside", window[323608U] == 0);
    }
    CHECK("gba_group_arrival_sequence_set", gba_group_arrival_sequence_set(0, 0xFFFFFFFFULL) == 0xFFFFFFFFULL);
    CHECK("gba_group_arrival_sequence_set clears", gba_group_arrival_sequence_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0xFFFFFFFF00000000ULL);
    CHECK("gba_group_arrival_sequence_set drops excess bits", gba_group_arrival_sequence_set(0, 0x100000000ULL) == 0);
    CHECK("gba_group_arrival_member_id_set", gba_group_arrival_member_id_set(0, 0xFFFFFFFFULL) == 0xFFFFFFFF00000000ULL);
    CHECK("gba_group_arrival_member_id_set clears", gba_group_arrival_member_id_set(0xFFFFFFFFFFFFFFFFULL, 0) == 0xFFFFFFFFULL);
    CHECK("gba_group_arrival_member_id_set drops excess bits", gba_group_arrival_member_id_set(0, 0x100000000ULL) == 0);
    {
        static const unsigned char bytes[8] = {0x6b, 0x94, 0xbd, 0xe6, 0x10, 0x39, 0x62, 0x8b};
        memset(window, 0, sizeof window);
        CHECK("gba_group_release_seq(window, 0) is at 0x11018", (volatile unsigned char *)gba_group_release_seq_ptr(window, 0) == (volatile unsigned char *)window + 69656U);
        memcpy(window + 69656U, bytes, 8);
        CHECK("gba_group_release_seq(window, 0) read", gba_group_release_seq_read(window, 0) == 0x8B623910E6BD946BULL);
    }
    {
        static const unsigned char bytes[8] = {0x9f, 0xc8, 0xf1, 0x1b, 0x44, 0x6d, 0x96, 0xbf};
        memset(window, 0, sizeof window);
        CHECK("gba_group_release_seq(window, 31) is at 0x4f018", (volatile unsigned char *)gba_group_release_seq_ptr(window, 31) == (volatile unsigned char *)window + 323608U);
        memcpy(window + 323608U, bytes, 8);
        CHECK("gba_group_release_seq(window, 31) read", gba_group_release_seq_read(window, 31) == 0xBF966D441BF1C89FULL);
    }
    CHECK("gba_group_release_seq_sequence_get", gba_group_release_seq_sequence_get(0xFFFFFFFFFFFFFFFFULL) == 0xFFFFFFFFULL);
    CHECK("gba_group_release_seq_sequence_get ignores its neighbours", gba_group_release_seq_sequence_get(0xFFFFFFFF00000000ULL) == 0);
    printf("checked %lu, failed %lu\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
