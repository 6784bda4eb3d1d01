// Generated from gba.yaml by `gba gen` (gba-codegen 0.1.0).
// Do not edit: change gba.yaml and run `gba gen` again.

#ifndef GBA_REGS_H
#define GBA_REGS_H

/*
 * Global Barrier Accelerator: a switch that runs barriers in hardware. Members arrive by
 * an MMIO store; when every member of a group has arrived, the switch writes the release
 * sequence into each member's release flag by DMA. All registers are little-endian.
 *
 * One port window per host: a global block followed by 32 group blocks, two 4 KiB pages
 * apart, so that a driver can map only the groups a job owns.
 *
 * Register map version 1.1.
 *
 * Offsets are in bytes: a block's from the start of the device window, a register's from the
 * start of its block. Masks, reset and enumerated values have the type of their register
 * (64-bit ones are `ULL`), so `~MASK` never loses the upper half. The accessors do no bounds
 * checks: instance and element indices must be below the matching `_COUNT`. Reading a register
 * with read-to-clear fields changes it.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Constants ---- */

/* Concurrent barrier groups per switch. */
#define GBA_MAX_GROUPS 32U
/* Members per group (one per switch port). */
#define GBA_MAX_MEMBERS 708U
/* Bytes of the device window, from its start to the end of the last block. */
#define GBA_WINDOW_SIZE 0x50000U

/* ---- Block global ---- */

/* Identity, limits and counters of this port. */
#define GBA_GLOBAL_OFFSET 0x0U
#define GBA_GLOBAL_SIZE 0x1000U
/* The first byte of block global. */
static inline volatile void *gba_global_base(volatile void *base)
{
    return (volatile uint8_t *)base + GBA_GLOBAL_OFFSET;
}

/*
 * global.DEVICE_ID: Identifies the device; any other value means this is not a GBA.
 *
 * 32-bit, ro, reset 0x47424131.
 */
#define GBA_GLOBAL_DEVICE_ID_OFFSET 0x0U
#define GBA_GLOBAL_DEVICE_ID_RESET_VALUE 0x47424131U

/* ID [31:0], ro: 0x4742_4131, "GBA1" in ASCII. */
#define GBA_GLOBAL_DEVICE_ID_ID_SHIFT 0
#define GBA_GLOBAL_DEVICE_ID_ID_WIDTH 32
#define GBA_GLOBAL_DEVICE_ID_ID_MASK 0xFFFFFFFFU

/* The address of DEVICE_ID. */
static inline volatile uint32_t *gba_global_device_id_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_DEVICE_ID_OFFSET);
}

/* Reads DEVICE_ID. */
static inline uint32_t gba_global_device_id_read(volatile void *base)
{
    return *gba_global_device_id_ptr(base);
}

/* Field ID of a DEVICE_ID value. */
static inline uint32_t gba_global_device_id_id_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_DEVICE_ID_ID_MASK) >> GBA_GLOBAL_DEVICE_ID_ID_SHIFT);
}

/*
 * global.VERSION: Version of the register map that the device implements.
 *
 * 32-bit, ro, reset 0x10001.
 */
#define GBA_GLOBAL_VERSION_OFFSET 0x4U
#define GBA_GLOBAL_VERSION_RESET_VALUE 0x10001U

/* MAJOR [31:16], ro: Major version; software refuses a major version it does not know. */
#define GBA_GLOBAL_VERSION_MAJOR_SHIFT 16
#define GBA_GLOBAL_VERSION_MAJOR_WIDTH 16
#define GBA_GLOBAL_VERSION_MAJOR_MASK 0xFFFF0000U

/* MINOR [15:0], ro: Minor version; additions only. */
#define GBA_GLOBAL_VERSION_MINOR_SHIFT 0
#define GBA_GLOBAL_VERSION_MINOR_WIDTH 16
#define GBA_GLOBAL_VERSION_MINOR_MASK 0xFFFFU

/* The address of VERSION. */
static inline volatile uint32_t *gba_global_version_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_VERSION_OFFSET);
}

/* Reads VERSION. */
static inline uint32_t gba_global_version_read(volatile void *base)
{
    return *gba_global_version_ptr(base);
}

/* Field MAJOR of a VERSION value. */
static inline uint32_t gba_global_version_major_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_VERSION_MAJOR_MASK) >> GBA_GLOBAL_VERSION_MAJOR_SHIFT);
}

/* Field MINOR of a VERSION value. */
static inline uint32_t gba_global_version_minor_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_VERSION_MINOR_MASK) >> GBA_GLOBAL_VERSION_MINOR_SHIFT);
}

/*
 * global.CAPS: Limits of this device, so that software reads them instead of assuming them.
 *
 * 32-bit, ro, reset 0x2c420.
 */
#define GBA_GLOBAL_CAPS_OFFSET 0x8U
#define GBA_GLOBAL_CAPS_RESET_VALUE 0x2C420U

/* MAX_GROUPS [7:0], ro: Number of barrier groups (32). */
#define GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT 0
#define GBA_GLOBAL_CAPS_MAX_GROUPS_WIDTH 8
#define GBA_GLOBAL_CAPS_MAX_GROUPS_MASK 0xFFU

/* MAX_MEMBERS [19:8], ro: Maximum members per group (708). */
#define GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT 8
#define GBA_GLOBAL_CAPS_MAX_MEMBERS_WIDTH 12
#define GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK 0xFFF00U

/* The address of CAPS. */
static inline volatile uint32_t *gba_global_caps_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_CAPS_OFFSET);
}

/* Reads CAPS. */
static inline uint32_t gba_global_caps_read(volatile void *base)
{
    return *gba_global_caps_ptr(base);
}

/* Field MAX_GROUPS of a CAPS value. */
static inline uint32_t gba_global_caps_max_groups_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_CAPS_MAX_GROUPS_MASK) >> GBA_GLOBAL_CAPS_MAX_GROUPS_SHIFT);
}

/* Field MAX_MEMBERS of a CAPS value. */
static inline uint32_t gba_global_caps_max_members_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_CAPS_MAX_MEMBERS_MASK) >> GBA_GLOBAL_CAPS_MAX_MEMBERS_SHIFT);
}

/*
 * global.PORT_ID: The switch port of this host, which is its member id in every group.
 *
 * 32-bit, ro, reset 0x0. Reset: `PORT` is strapped: fixed per device instance, known only at
 * run time; the reset value given has 0 in its bits. GBA_GLOBAL_PORT_ID_RESET_FIXED_MASK: the
 * bits whose reset every element and instance shares.
 */
#define GBA_GLOBAL_PORT_ID_OFFSET 0xCU
#define GBA_GLOBAL_PORT_ID_RESET_VALUE 0x0U
#define GBA_GLOBAL_PORT_ID_RESET_FIXED_MASK 0xFFFFF000U

/* PORT [11:0], ro: Port number, strapped per port. */
#define GBA_GLOBAL_PORT_ID_PORT_SHIFT 0
#define GBA_GLOBAL_PORT_ID_PORT_WIDTH 12
#define GBA_GLOBAL_PORT_ID_PORT_MASK 0xFFFU

/* The address of PORT_ID. */
static inline volatile uint32_t *gba_global_port_id_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_PORT_ID_OFFSET);
}

/* Reads PORT_ID. */
static inline uint32_t gba_global_port_id_read(volatile void *base)
{
    return *gba_global_port_id_ptr(base);
}

/* Field PORT of a PORT_ID value. */
static inline uint32_t gba_global_port_id_port_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_PORT_ID_PORT_MASK) >> GBA_GLOBAL_PORT_ID_PORT_SHIFT);
}

/*
 * global.GROUP_ENABLED: Which groups are enabled on this port.
 *
 * 32-bit, ro, reset 0x0.
 */
#define GBA_GLOBAL_GROUP_ENABLED_OFFSET 0x10U
#define GBA_GLOBAL_GROUP_ENABLED_RESET_VALUE 0x0U

/* GROUPS [31:0], ro: Bit g set means group g is enabled on this port. */
#define GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT 0
#define GBA_GLOBAL_GROUP_ENABLED_GROUPS_WIDTH 32
#define GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK 0xFFFFFFFFU

/* The address of GROUP_ENABLED. */
static inline volatile uint32_t *gba_global_group_enabled_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_GROUP_ENABLED_OFFSET);
}

/* Reads GROUP_ENABLED. */
static inline uint32_t gba_global_group_enabled_read(volatile void *base)
{
    return *gba_global_group_enabled_ptr(base);
}

/* Field GROUPS of a GROUP_ENABLED value. */
static inline uint32_t gba_global_group_enabled_groups_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_GROUP_ENABLED_GROUPS_MASK) >> GBA_GLOBAL_GROUP_ENABLED_GROUPS_SHIFT);
}

/*
 * global.GROUPS_BUSY: Which groups are enabled on at least one port of the switch (map 1.1).
 * Members
 * agree on a free group id by combining their free masks (AND of the complements)
 * and taking the lowest common bit.
 *
 * 32-bit, ro, reset 0x0.
 */
#define GBA_GLOBAL_GROUPS_BUSY_OFFSET 0x14U
#define GBA_GLOBAL_GROUPS_BUSY_RESET_VALUE 0x0U

/* GROUPS [31:0], ro: Bit g set means group g is enabled on at least one port. */
#define GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT 0
#define GBA_GLOBAL_GROUPS_BUSY_GROUPS_WIDTH 32
#define GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK 0xFFFFFFFFU

/* The address of GROUPS_BUSY. */
static inline volatile uint32_t *gba_global_groups_busy_ptr(volatile void *base)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_GROUPS_BUSY_OFFSET);
}

/* Reads GROUPS_BUSY. */
static inline uint32_t gba_global_groups_busy_read(volatile void *base)
{
    return *gba_global_groups_busy_ptr(base);
}

/* Field GROUPS of a GROUPS_BUSY value. */
static inline uint32_t gba_global_groups_busy_groups_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GLOBAL_GROUPS_BUSY_GROUPS_MASK) >> GBA_GLOBAL_GROUPS_BUSY_GROUPS_SHIFT);
}

/*
 * global.BARRIERS_COMPLETED: Barrier episodes completed that involved this port.
 *
 * 64-bit, ro, reset 0x0.
 */
#define GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET 0x18U
#define GBA_GLOBAL_BARRIERS_COMPLETED_RESET_VALUE 0x0ULL

/* COUNT [63:0], ro: Number of completed episodes; wraps at 2^64. */
#define GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT 0
#define GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_WIDTH 64
#define GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK 0xFFFFFFFFFFFFFFFFULL

/* The address of BARRIERS_COMPLETED. */
static inline volatile uint64_t *gba_global_barriers_completed_ptr(volatile void *base)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_global_base(base) + GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET);
}

/* Reads BARRIERS_COMPLETED. */
static inline uint64_t gba_global_barriers_completed_read(volatile void *base)
{
    return *gba_global_barriers_completed_ptr(base);
}

/* Field COUNT of a BARRIERS_COMPLETED value. */
static inline uint64_t gba_global_barriers_completed_count_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_MASK) >> GBA_GLOBAL_BARRIERS_COMPLETED_COUNT_SHIFT);
}

/* ---- Block group ---- */

/*
 * One barrier group as seen from this port: its member set, this member's release
 * flag, control and status, and the arrival doorbell.
 */
#define GBA_GROUP_OFFSET 0x10000U
#define GBA_GROUP_SIZE 0x2000U
#define GBA_GROUP_COUNT 32U
#define GBA_GROUP_STRIDE 0x2000U
/* The first byte of instance `instance` (below GBA_GROUP_COUNT) of block group. */
static inline volatile void *gba_group_base(volatile void *base, uint32_t instance)
{
    return (volatile uint8_t *)base + GBA_GROUP_OFFSET + (size_t)instance * GBA_GROUP_STRIDE;
}

/*
 * group.GROUP_ID: The index of this group block.
 *
 * 32-bit, ro, reset 0x0. Reset: `ID` resets to its element's index (element i reads i); the
 * reset value given has 0 in its bits. GBA_GROUP_GROUP_ID_RESET_FIXED_MASK: the bits whose
 * reset every element and instance shares.
 */
#define GBA_GROUP_GROUP_ID_OFFSET 0x0U
#define GBA_GROUP_GROUP_ID_RESET_VALUE 0x0U
#define GBA_GROUP_GROUP_ID_RESET_FIXED_MASK 0xFFFFFFE0U

/* ID [4:0], ro: Equals g for group block g. */
#define GBA_GROUP_GROUP_ID_ID_SHIFT 0
#define GBA_GROUP_GROUP_ID_ID_WIDTH 5
#define GBA_GROUP_GROUP_ID_ID_MASK 0x1FU

/* The address of GROUP_ID. */
static inline volatile uint32_t *gba_group_group_id_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_GROUP_ID_OFFSET);
}

/* Reads GROUP_ID. */
static inline uint32_t gba_group_group_id_read(volatile void *base, uint32_t instance)
{
    return *gba_group_group_id_ptr(base, instance);
}

/* Field ID of a GROUP_ID value. */
static inline uint32_t gba_group_group_id_id_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GROUP_GROUP_ID_ID_MASK) >> GBA_GROUP_GROUP_ID_ID_SHIFT);
}

/*
 * group.MEMBER_COUNT: Number of members of the group; must equal the number of bits set in
 * MEMBER_MASK.
 *
 * 32-bit, rw, reset 0x0.
 */
#define GBA_GROUP_MEMBER_COUNT_OFFSET 0x4U
#define GBA_GROUP_MEMBER_COUNT_RESET_VALUE 0x0U

/* COUNT [9:0], rw: Member count, 1 to 708. */
#define GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT 0
#define GBA_GROUP_MEMBER_COUNT_COUNT_WIDTH 10
#define GBA_GROUP_MEMBER_COUNT_COUNT_MASK 0x3FFU

/* The address of MEMBER_COUNT. */
static inline volatile uint32_t *gba_group_member_count_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_MEMBER_COUNT_OFFSET);
}

/* Reads MEMBER_COUNT. */
static inline uint32_t gba_group_member_count_read(volatile void *base, uint32_t instance)
{
    return *gba_group_member_count_ptr(base, instance);
}

/* Writes MEMBER_COUNT. */
static inline void gba_group_member_count_write(volatile void *base, uint32_t instance, uint32_t value)
{
    *gba_group_member_count_ptr(base, instance) = value;
}

/* Field COUNT of a MEMBER_COUNT value. */
static inline uint32_t gba_group_member_count_count_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GROUP_MEMBER_COUNT_COUNT_MASK) >> GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT);
}

/* `value` with field COUNT replaced by `field` (its excess bits dropped). */
static inline uint32_t gba_group_member_count_count_set(uint32_t value, uint32_t field)
{
    return (uint32_t)((value & ~GBA_GROUP_MEMBER_COUNT_COUNT_MASK) | (((uint32_t)field << GBA_GROUP_MEMBER_COUNT_COUNT_SHIFT) & GBA_GROUP_MEMBER_COUNT_COUNT_MASK));
}

/*
 * group.ARRIVAL_COUNT: Members that have arrived for the pending episode.
 *
 * 32-bit, ro, reset 0x0.
 */
#define GBA_GROUP_ARRIVAL_COUNT_OFFSET 0x8U
#define GBA_GROUP_ARRIVAL_COUNT_RESET_VALUE 0x0U

/* COUNT [9:0], ro: Arrived members; cleared when the episode completes. */
#define GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT 0
#define GBA_GROUP_ARRIVAL_COUNT_COUNT_WIDTH 10
#define GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK 0x3FFU

/* The address of ARRIVAL_COUNT. */
static inline volatile uint32_t *gba_group_arrival_count_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_ARRIVAL_COUNT_OFFSET);
}

/* Reads ARRIVAL_COUNT. */
static inline uint32_t gba_group_arrival_count_read(volatile void *base, uint32_t instance)
{
    return *gba_group_arrival_count_ptr(base, instance);
}

/* Field COUNT of a ARRIVAL_COUNT value. */
static inline uint32_t gba_group_arrival_count_count_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GROUP_ARRIVAL_COUNT_COUNT_MASK) >> GBA_GROUP_ARRIVAL_COUNT_COUNT_SHIFT);
}

/*
 * group.LOCAL_MEMBER_ID: This port's member id in the group; must equal PORT_ID.
 *
 * 32-bit, rw, reset 0x0.
 */
#define GBA_GROUP_LOCAL_MEMBER_ID_OFFSET 0xCU
#define GBA_GROUP_LOCAL_MEMBER_ID_RESET_VALUE 0x0U

/* ID [9:0], rw: Member id of this port. */
#define GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT 0
#define GBA_GROUP_LOCAL_MEMBER_ID_ID_WIDTH 10
#define GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK 0x3FFU

/* The address of LOCAL_MEMBER_ID. */
static inline volatile uint32_t *gba_group_local_member_id_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint32_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_LOCAL_MEMBER_ID_OFFSET);
}

/* Reads LOCAL_MEMBER_ID. */
static inline uint32_t gba_group_local_member_id_read(volatile void *base, uint32_t instance)
{
    return *gba_group_local_member_id_ptr(base, instance);
}

/* Writes LOCAL_MEMBER_ID. */
static inline void gba_group_local_member_id_write(volatile void *base, uint32_t instance, uint32_t value)
{
    *gba_group_local_member_id_ptr(base, instance) = value;
}

/* Field ID of a LOCAL_MEMBER_ID value. */
static inline uint32_t gba_group_local_member_id_id_get(uint32_t value)
{
    return (uint32_t)((value & GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK) >> GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT);
}

/* `value` with field ID replaced by `field` (its excess bits dropped). */
static inline uint32_t gba_group_local_member_id_id_set(uint32_t value, uint32_t field)
{
    return (uint32_t)((value & ~GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK) | (((uint32_t)field << GBA_GROUP_LOCAL_MEMBER_ID_ID_SHIFT) & GBA_GROUP_LOCAL_MEMBER_ID_ID_MASK));
}

/*
 * group.MEMBER_MASK: The 708-bit member set: member m is bit m % 64 of word m / 64. Bits 708
 * to 767
 * (word 11, bits 4 to 63) are reserved and must be 0.
 *
 * 64-bit, rw, reset 0x0. An array of 12 elements, 0x8 bytes apart.
 */
#define GBA_GROUP_MEMBER_MASK_OFFSET 0x10U
#define GBA_GROUP_MEMBER_MASK_RESET_VALUE 0x0ULL
#define GBA_GROUP_MEMBER_MASK_COUNT 12U
#define GBA_GROUP_MEMBER_MASK_STRIDE 0x8U

/* MEMBERS [63:0], rw: One bit per member. */
#define GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT 0
#define GBA_GROUP_MEMBER_MASK_MEMBERS_WIDTH 64
#define GBA_GROUP_MEMBER_MASK_MEMBERS_MASK 0xFFFFFFFFFFFFFFFFULL

/* The address of MEMBER_MASK. */
static inline volatile uint64_t *gba_group_member_mask_ptr(volatile void *base, uint32_t instance, uint32_t index)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_MEMBER_MASK_OFFSET + (size_t)index * GBA_GROUP_MEMBER_MASK_STRIDE);
}

/* Reads MEMBER_MASK. */
static inline uint64_t gba_group_member_mask_read(volatile void *base, uint32_t instance, uint32_t index)
{
    return *gba_group_member_mask_ptr(base, instance, index);
}

/* Writes MEMBER_MASK. */
static inline void gba_group_member_mask_write(volatile void *base, uint32_t instance, uint32_t index, uint64_t value)
{
    *gba_group_member_mask_ptr(base, instance, index) = value;
}

/* Field MEMBERS of a MEMBER_MASK value. */
static inline uint64_t gba_group_member_mask_members_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_MEMBER_MASK_MEMBERS_MASK) >> GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT);
}

/* `value` with field MEMBERS replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_member_mask_members_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_MEMBER_MASK_MEMBERS_MASK) | (((uint64_t)field << GBA_GROUP_MEMBER_MASK_MEMBERS_SHIFT) & GBA_GROUP_MEMBER_MASK_MEMBERS_MASK));
}

/*
 * group.RELEASE_ADDR: Device address (IOVA) of this member's release flag. The switch writes
 * the
 * completed episode's sequence number there; an unmapped or misaligned address
 * fails the episode with DMA_FAULT.
 *
 * 64-bit, rw, reset 0x0.
 */
#define GBA_GROUP_RELEASE_ADDR_OFFSET 0x80U
#define GBA_GROUP_RELEASE_ADDR_RESET_VALUE 0x0ULL

/* ADDR [63:0], rw: IOVA of the release flag; must be 8-byte aligned. */
#define GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT 0
#define GBA_GROUP_RELEASE_ADDR_ADDR_WIDTH 64
#define GBA_GROUP_RELEASE_ADDR_ADDR_MASK 0xFFFFFFFFFFFFFFFFULL

/* The address of RELEASE_ADDR. */
static inline volatile uint64_t *gba_group_release_addr_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_RELEASE_ADDR_OFFSET);
}

/* Reads RELEASE_ADDR. */
static inline uint64_t gba_group_release_addr_read(volatile void *base, uint32_t instance)
{
    return *gba_group_release_addr_ptr(base, instance);
}

/* Writes RELEASE_ADDR. */
static inline void gba_group_release_addr_write(volatile void *base, uint32_t instance, uint64_t value)
{
    *gba_group_release_addr_ptr(base, instance) = value;
}

/* Field ADDR of a RELEASE_ADDR value. */
static inline uint64_t gba_group_release_addr_addr_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_RELEASE_ADDR_ADDR_MASK) >> GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT);
}

/* `value` with field ADDR replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_release_addr_addr_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_RELEASE_ADDR_ADDR_MASK) | (((uint64_t)field << GBA_GROUP_RELEASE_ADDR_ADDR_SHIFT) & GBA_GROUP_RELEASE_ADDR_ADDR_MASK));
}

/*
 * group.ARRIVED_MASK: Members that have arrived for the pending episode, in MEMBER_MASK's
 * layout.
 *
 * 64-bit, ro, reset 0x0. An array of 12 elements, 0x8 bytes apart.
 */
#define GBA_GROUP_ARRIVED_MASK_OFFSET 0x100U
#define GBA_GROUP_ARRIVED_MASK_RESET_VALUE 0x0ULL
#define GBA_GROUP_ARRIVED_MASK_COUNT 12U
#define GBA_GROUP_ARRIVED_MASK_STRIDE 0x8U

/* MEMBERS [63:0], ro: One bit per member; cleared when the episode completes. */
#define GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT 0
#define GBA_GROUP_ARRIVED_MASK_MEMBERS_WIDTH 64
#define GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK 0xFFFFFFFFFFFFFFFFULL

/* The address of ARRIVED_MASK. */
static inline volatile uint64_t *gba_group_arrived_mask_ptr(volatile void *base, uint32_t instance, uint32_t index)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_ARRIVED_MASK_OFFSET + (size_t)index * GBA_GROUP_ARRIVED_MASK_STRIDE);
}

/* Reads ARRIVED_MASK. */
static inline uint64_t gba_group_arrived_mask_read(volatile void *base, uint32_t instance, uint32_t index)
{
    return *gba_group_arrived_mask_ptr(base, instance, index);
}

/* Field MEMBERS of a ARRIVED_MASK value. */
static inline uint64_t gba_group_arrived_mask_members_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_ARRIVED_MASK_MEMBERS_MASK) >> GBA_GROUP_ARRIVED_MASK_MEMBERS_SHIFT);
}

/*
 * group.CONTROL: Enables, arms and resets the group on this port.
 *
 * 64-bit, rw, reset 0x0.
 */
#define GBA_GROUP_CONTROL_OFFSET 0x1000U
#define GBA_GROUP_CONTROL_RESET_VALUE 0x0ULL
/*
 * Bits of CONTROL that act when written as 1 (write-1-to-clear, -set, -toggle, single pulses):
 * clear them in a value read back before writing it.
 */
#define GBA_GROUP_CONTROL_W1_MASK 0x2ULL

/* ENABLE [0], rw: Take part in the group. */
#define GBA_GROUP_CONTROL_ENABLE_SHIFT 0
#define GBA_GROUP_CONTROL_ENABLE_WIDTH 1
#define GBA_GROUP_CONTROL_ENABLE_MASK 0x1ULL

/*
 * RESET [1], rw (write 1 for a single pulse, reads 0): Writing 1 resets the group's state on
 * this port; self-clearing, reads as 0.
 */
#define GBA_GROUP_CONTROL_RESET_SHIFT 1
#define GBA_GROUP_CONTROL_RESET_WIDTH 1
#define GBA_GROUP_CONTROL_RESET_MASK 0x2ULL

/* ARM [2], rw: Accept arrivals once the configuration is complete. */
#define GBA_GROUP_CONTROL_ARM_SHIFT 2
#define GBA_GROUP_CONTROL_ARM_WIDTH 1
#define GBA_GROUP_CONTROL_ARM_MASK 0x4ULL

/* The address of CONTROL. */
static inline volatile uint64_t *gba_group_control_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_CONTROL_OFFSET);
}

/* Reads CONTROL. */
static inline uint64_t gba_group_control_read(volatile void *base, uint32_t instance)
{
    return *gba_group_control_ptr(base, instance);
}

/*
 * Writes CONTROL. Bits GBA_GROUP_CONTROL_W1_MASK act when written as 1: clear them in a value
 * read back before writing it.
 */
static inline void gba_group_control_write(volatile void *base, uint32_t instance, uint64_t value)
{
    *gba_group_control_ptr(base, instance) = value;
}

/* Field ENABLE of a CONTROL value. */
static inline uint64_t gba_group_control_enable_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_CONTROL_ENABLE_MASK) >> GBA_GROUP_CONTROL_ENABLE_SHIFT);
}

/* `value` with field ENABLE replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_control_enable_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_CONTROL_ENABLE_MASK) | (((uint64_t)field << GBA_GROUP_CONTROL_ENABLE_SHIFT) & GBA_GROUP_CONTROL_ENABLE_MASK));
}

/* Field RESET of a CONTROL value. */
static inline uint64_t gba_group_control_reset_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_CONTROL_RESET_MASK) >> GBA_GROUP_CONTROL_RESET_SHIFT);
}

/* `value` with field RESET replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_control_reset_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_CONTROL_RESET_MASK) | (((uint64_t)field << GBA_GROUP_CONTROL_RESET_SHIFT) & GBA_GROUP_CONTROL_RESET_MASK));
}

/* Field ARM of a CONTROL value. */
static inline uint64_t gba_group_control_arm_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_CONTROL_ARM_MASK) >> GBA_GROUP_CONTROL_ARM_SHIFT);
}

/* `value` with field ARM replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_control_arm_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_CONTROL_ARM_MASK) | (((uint64_t)field << GBA_GROUP_CONTROL_ARM_SHIFT) & GBA_GROUP_CONTROL_ARM_MASK));
}

/*
 * group.STATUS: State of the group on this port.
 *
 * 64-bit, ro, reset 0x0.
 */
#define GBA_GROUP_STATUS_OFFSET 0x1008U
#define GBA_GROUP_STATUS_RESET_VALUE 0x0ULL

/* READY [0], ro: Every member port is configured alike; arrivals are accepted. */
#define GBA_GROUP_STATUS_READY_SHIFT 0
#define GBA_GROUP_STATUS_READY_WIDTH 1
#define GBA_GROUP_STATUS_READY_MASK 0x1ULL

/* ACTIVE [1], ro: An episode is pending (at least one member has arrived). */
#define GBA_GROUP_STATUS_ACTIVE_SHIFT 1
#define GBA_GROUP_STATUS_ACTIVE_WIDTH 1
#define GBA_GROUP_STATUS_ACTIVE_MASK 0x2ULL

/* COMPLETE [2], ro: At least one episode has completed. */
#define GBA_GROUP_STATUS_COMPLETE_SHIFT 2
#define GBA_GROUP_STATUS_COMPLETE_WIDTH 1
#define GBA_GROUP_STATUS_COMPLETE_MASK 0x4ULL

/* ERROR [3], ro: The group failed; ERROR_CODE says why. */
#define GBA_GROUP_STATUS_ERROR_SHIFT 3
#define GBA_GROUP_STATUS_ERROR_WIDTH 1
#define GBA_GROUP_STATUS_ERROR_MASK 0x8ULL

/* ERROR_CODE [15:8], ro: Why the group failed. */
#define GBA_GROUP_STATUS_ERROR_CODE_SHIFT 8
#define GBA_GROUP_STATUS_ERROR_CODE_WIDTH 8
#define GBA_GROUP_STATUS_ERROR_CODE_MASK 0xFF00ULL
/* No error. */
#define GBA_GROUP_STATUS_ERROR_CODE_NONE 0x0ULL
/* Member ports disagree on MEMBER_MASK. */
#define GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH 0x1ULL
/* MEMBER_COUNT differs from the number of bits set in MEMBER_MASK. */
#define GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH 0x2ULL
/* LOCAL_MEMBER_ID is not this port, not in MEMBER_MASK, or a reserved mask bit is set. */
#define GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER 0x3ULL
/* An arrival was out of sequence. */
#define GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR 0x4ULL
/* RELEASE_ADDR is unmapped or misaligned. */
#define GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT 0x5ULL
/*
 * The group is already enabled by ports whose member set does not include
 * this port (map 1.1): another job holds it. Agree on another group id and
 * retry.
 */
#define GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY 0x6ULL

/* The address of STATUS. */
static inline volatile uint64_t *gba_group_status_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_STATUS_OFFSET);
}

/* Reads STATUS. */
static inline uint64_t gba_group_status_read(volatile void *base, uint32_t instance)
{
    return *gba_group_status_ptr(base, instance);
}

/* Field READY of a STATUS value. */
static inline uint64_t gba_group_status_ready_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_STATUS_READY_MASK) >> GBA_GROUP_STATUS_READY_SHIFT);
}

/* Field ACTIVE of a STATUS value. */
static inline uint64_t gba_group_status_active_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_STATUS_ACTIVE_MASK) >> GBA_GROUP_STATUS_ACTIVE_SHIFT);
}

/* Field COMPLETE of a STATUS value. */
static inline uint64_t gba_group_status_complete_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_STATUS_COMPLETE_MASK) >> GBA_GROUP_STATUS_COMPLETE_SHIFT);
}

/* Field ERROR of a STATUS value. */
static inline uint64_t gba_group_status_error_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_STATUS_ERROR_MASK) >> GBA_GROUP_STATUS_ERROR_SHIFT);
}

/* Field ERROR_CODE of a STATUS value. */
static inline uint64_t gba_group_status_error_code_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_STATUS_ERROR_CODE_MASK) >> GBA_GROUP_STATUS_ERROR_CODE_SHIFT);
}

/* The spec's name of a value of field ERROR_CODE. */
static inline const char *gba_group_status_error_code_name(uint64_t value)
{
    switch (value) {
    case GBA_GROUP_STATUS_ERROR_CODE_NONE: return "NONE";
    case GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH: return "MASK_MISMATCH";
    case GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH: return "COUNT_MISMATCH";
    case GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER: return "BAD_MEMBER";
    case GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR: return "SEQ_ERROR";
    case GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT: return "DMA_FAULT";
    case GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY: return "GROUP_BUSY";
    default: return "";
    }
}

/* The spec's description of a value of field ERROR_CODE, on one line. */
static inline const char *gba_group_status_error_code_description(uint64_t value)
{
    switch (value) {
    case GBA_GROUP_STATUS_ERROR_CODE_NONE: return "No error.";
    case GBA_GROUP_STATUS_ERROR_CODE_MASK_MISMATCH: return "Member ports disagree on MEMBER_MASK.";
    case GBA_GROUP_STATUS_ERROR_CODE_COUNT_MISMATCH: return "MEMBER_COUNT differs from the number of bits set in MEMBER_MASK.";
    case GBA_GROUP_STATUS_ERROR_CODE_BAD_MEMBER: return "LOCAL_MEMBER_ID is not this port, not in MEMBER_MASK, or a reserved mask bit is set.";
    case GBA_GROUP_STATUS_ERROR_CODE_SEQ_ERROR: return "An arrival was out of sequence.";
    case GBA_GROUP_STATUS_ERROR_CODE_DMA_FAULT: return "RELEASE_ADDR is unmapped or misaligned.";
    case GBA_GROUP_STATUS_ERROR_CODE_GROUP_BUSY: return "The group is already enabled by ports whose member set does not include this port (map 1.1): another job holds it. Agree on another group id and retry.";
    default: return "";
    }
}

/*
 * group.ARRIVAL: The arrival doorbell. Storing (member id << 32) | (episode mod 2^32) arrives
 * at the
 * barrier; the store must be ordered after the caller's earlier memory writes.
 *
 * 64-bit, wo, reset 0x0.
 */
#define GBA_GROUP_ARRIVAL_OFFSET 0x1010U
#define GBA_GROUP_ARRIVAL_RESET_VALUE 0x0ULL

/* SEQUENCE [31:0], wo: The episode number modulo 2^32; must be RELEASE_SEQ + 1. */
#define GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT 0
#define GBA_GROUP_ARRIVAL_SEQUENCE_WIDTH 32
#define GBA_GROUP_ARRIVAL_SEQUENCE_MASK 0xFFFFFFFFULL

/* MEMBER_ID [63:32], wo: The arriving member's id. */
#define GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT 32
#define GBA_GROUP_ARRIVAL_MEMBER_ID_WIDTH 32
#define GBA_GROUP_ARRIVAL_MEMBER_ID_MASK 0xFFFFFFFF00000000ULL

/* The address of ARRIVAL. */
static inline volatile uint64_t *gba_group_arrival_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_ARRIVAL_OFFSET);
}

/* Writes ARRIVAL. */
static inline void gba_group_arrival_write(volatile void *base, uint32_t instance, uint64_t value)
{
    *gba_group_arrival_ptr(base, instance) = value;
}

/* `value` with field SEQUENCE replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_arrival_sequence_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_ARRIVAL_SEQUENCE_MASK) | (((uint64_t)field << GBA_GROUP_ARRIVAL_SEQUENCE_SHIFT) & GBA_GROUP_ARRIVAL_SEQUENCE_MASK));
}

/* `value` with field MEMBER_ID replaced by `field` (its excess bits dropped). */
static inline uint64_t gba_group_arrival_member_id_set(uint64_t value, uint64_t field)
{
    return (uint64_t)((value & ~GBA_GROUP_ARRIVAL_MEMBER_ID_MASK) | (((uint64_t)field << GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT) & GBA_GROUP_ARRIVAL_MEMBER_ID_MASK));
}

/*
 * group.RELEASE_SEQ: The last completed episode.
 *
 * 64-bit, ro, reset 0x0.
 */
#define GBA_GROUP_RELEASE_SEQ_OFFSET 0x1018U
#define GBA_GROUP_RELEASE_SEQ_RESET_VALUE 0x0ULL

/* SEQUENCE [31:0], ro: Episode number modulo 2^32; compare in serial-number arithmetic. */
#define GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT 0
#define GBA_GROUP_RELEASE_SEQ_SEQUENCE_WIDTH 32
#define GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK 0xFFFFFFFFULL

/* The address of RELEASE_SEQ. */
static inline volatile uint64_t *gba_group_release_seq_ptr(volatile void *base, uint32_t instance)
{
    return (volatile uint64_t *)((volatile uint8_t *)gba_group_base(base, instance) + GBA_GROUP_RELEASE_SEQ_OFFSET);
}

/* Reads RELEASE_SEQ. */
static inline uint64_t gba_group_release_seq_read(volatile void *base, uint32_t instance)
{
    return *gba_group_release_seq_ptr(base, instance);
}

/* Field SEQUENCE of a RELEASE_SEQ value. */
static inline uint64_t gba_group_release_seq_sequence_get(uint64_t value)
{
    return (uint64_t)((value & GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK) >> GBA_GROUP_RELEASE_SEQ_SEQUENCE_SHIFT);
}

#ifdef __cplusplus
}
#endif

#endif /* GBA_REGS_H */
