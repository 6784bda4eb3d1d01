/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The user-space interface of the GBA kernel driver (driver/gba.c): ioctls on /dev/gbaN and
 * the mmap offsets it accepts. Every structure has a fixed layout (no pointers, explicit
 * padding), so 32- and 64-bit callers share it; gba-hal's kernel_abi.rs mirrors it and a test
 * compares the two with gcc.
 *
 * One file holds at most one claim; a process that needs several groups opens the device once
 * per group. A claim is freed (the group reset, then its flag memory freed) when the last file
 * that won or joined it is released: close, exit or kill, and every mapping of it gone.
 *
 * When the port goes away (unbind, PCI remove, a function reset, a PCI error) every file open
 * on it is revoked: its ioctls and mmaps fail with ENODEV and its mappings are zapped (a
 * later access raises SIGBUS). A port that comes back (a reset done, an error recovered) is
 * claimed again through a newly opened file.
 */
#ifndef _UAPI_GBA_IOCTL_H
#define _UAPI_GBA_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Words of a member set (708 members: 12 x 64 bits), as in MEMBER_MASK. */
#define GBA_IOCTL_MEMBER_WORDS 12
/* Groups per port. */
#define GBA_IOCTL_GROUPS 32
/* Processes of one team on one port (the combining block's slots). */
#define GBA_IOCTL_MAX_LOCAL 64
/* Bytes of a team key: 128 random bits, compared in constant time. */
#define GBA_IOCTL_KEY_BYTES 16
/*
 * A uid or pid the caller may not see: another user's, shown only to that user and to
 * CAP_SYS_ADMIN (gba_claim_req.owner_uid, gba_claim_entry.uid, gba_local.uid).
 */
#define GBA_UID_HIDDEN 0xffffffffU

/*
 * mmap offsets. A held group's run-time page (CONTROL, STATUS, ARRIVAL, RELEASE_SEQ) is at its
 * offset in the register window (GBA_GROUP_OFFSET + g * GBA_GROUP_STRIDE + 0x1000, returned in
 * gba_claim_req.run_offset). The claim's shared memory, GBA_IOCTL_SHARED_SIZE bytes of DMA memory
 * the driver allocated, is at GBA_IOCTL_SHARED_BASE + g * GBA_IOCTL_SHARED_SIZE: line 0 the
 * release flag (RELEASE_ADDR points there), line 1 the host's arrivals counter, line 2 + i the
 * `entered` word of local index i. Any other offset, length, or a group this file does not
 * hold, is refused with EACCES.
 */
#define GBA_IOCTL_SHARED_BASE 0x100000ULL
#define GBA_IOCTL_SHARED_SIZE 0x2000ULL
#define GBA_IOCTL_LINE 64

/*
 * GBA_IOC_INFO: the port, read at the call. barriers_completed is the port's
 * BARRIERS_COMPLETED for CAP_SYS_ADMIN only; any other caller gets the sum of RELEASE_SEQ
 * (episodes completed) over the groups its uid holds now, so that no opener learns the rate of
 * another user's jobs. group_enabled and groups_busy say which groups are taken (what a claim
 * attempt says anyway), never by whom.
 */
struct gba_info {
	__u32 device_id;
	__u32 version;
	__u32 caps;
	__u32 port_id;
	__u32 group_enabled;
	__u32 groups_busy;
	__u32 groups_per_uid;	/* the quota (module parameter) */
	__u32 held_by_caller;	/* groups the caller's uid holds on this port */
	__u64 barriers_completed;
	__u64 window_size;	/* bytes of the register window */
};

/* gba_claim_req.result */
#define GBA_CLAIM_WON 1		/* this file holds the group, configured by the driver */
#define GBA_CLAIM_JOINED 2	/* this file joined a team-mate's claim */
#define GBA_CLAIM_BUSY 3	/* another team holds the group: agree on another id */
#define GBA_CLAIM_DENIED 4	/* refused; `reason` says why */

/* gba_claim_req.reason */
#define GBA_REASON_NONE 0
/*
 * BUSY: held by another team: another key, or another uid (join_policy 0) whatever the key.
 * The two are one answer, so that a claim is no oracle for another user's key. (2 was
 * OTHER_UID, which made it one.)
 */
#define GBA_REASON_OTHER_TEAM 1
#define GBA_REASON_QUOTA 3	/* DENIED: the caller's uid holds groups_per_uid groups already */
#define GBA_REASON_MEMBERS 4	/* DENIED: member set or local count differs from the claim's */
#define GBA_REASON_INDEX 5	/* DENIED: local index taken, or the team is complete */
#define GBA_REASON_RESET_TIMEOUT 6 /* DENIED: the device did not finish RESET (1 s) */
#define GBA_REASON_NO_MEMORY 7	/* DENIED: no DMA memory for the flag */

/* GBA_IOC_CLAIM: take or join a group for a team. */
struct gba_claim_req {
	__u32 group;		/* in: below GBA_IOCTL_GROUPS */
	__u32 local;		/* in: processes of the team on this port, 1..GBA_IOCTL_MAX_LOCAL */
	__u32 index;		/* in: this process's index among them, below `local` */
	__u32 flags;		/* in: 0 */
	__u64 key[2];		/* in: the team key (GBA_IOCTL_KEY_BYTES), never all 0 */
	__u64 members[GBA_IOCTL_MEMBER_WORDS]; /* in: the member set; must hold PORT_ID */
	__u32 result;		/* out: GBA_CLAIM_* */
	__u32 reason;		/* out: GBA_REASON_* */
	__u32 owner_uid;	/* out: the holder's uid, or GBA_UID_HIDDEN when another user's */
	__u32 files;		/* out: files in the claim, this one included when won/joined */
	__u64 run_offset;	/* out: mmap offset of the run-time page */
	__u64 shared_offset;	/* out: mmap offset of the shared memory */
	__u64 flag_iova;	/* out: 0 (the bus address of the flag is the kernel's) */
	__u32 rank;		/* in: this process's team rank (GBA_IOC_LOCALS reports it) */
	__u32 reserved;		/* in: 0 */
};

/* GBA_IOC_STATE: the held group's registers, for diagnosis. */
struct gba_state {
	__u32 group;		/* out: the group this file holds */
	__u32 arrival_count;
	__u32 member_count;
	__u32 local_member_id;
	__u64 control;
	__u64 status;
	__u64 release_seq;
	__u64 release_addr;
	__u64 member_mask[GBA_IOCTL_MEMBER_WORDS];
	__u64 arrived_mask[GBA_IOCTL_MEMBER_WORDS];
};

/*
 * One claim of GBA_IOC_CLAIMS. The team key is never shown: it is the team's secret. Of
 * another user's claim (unless the caller has CAP_SYS_ADMIN) only `group` is shown: uid is
 * GBA_UID_HIDDEN and every other field 0.
 */
struct gba_claim_entry {
	__u32 group;
	__u32 uid;		/* in the caller's user namespace (overflow uid if unmapped) */
	__s32 pid;		/* the winner's pid in the caller's pid namespace (0: none) */
	__u32 local;
	__u32 files;
	__u32 member_count;
	__u64 flag_iova;	/* CAP_SYS_ADMIN only: RELEASE_ADDR's value (else 0) */
};

/* GBA_IOC_CLAIMS: every claim of the port, for `gba dump`. */
struct gba_claims {
	__u32 count;
	__u32 reserved;
	struct gba_claim_entry entries[GBA_IOCTL_GROUPS];
};

/*
 * One file of a claim, as GBA_IOC_LOCALS reports it: the process that won or joined with it,
 * so that a barrier's timeout names the local processes that have not arrived.
 */
struct gba_local {
	__s32 pid;		/* the claiming process, in the caller's pid namespace (0: none) */
	__u32 uid;		/* its uid, in the caller's user namespace */
	__u32 index;		/* its local index (combining slot) */
	__u32 rank;		/* the team rank it gave at its claim */
	__u64 entered;		/* its combining slot's `entered` word (last sequence entered) */
};

/*
 * GBA_IOC_LOCALS: the files of one group's claim (count 0: the group is not claimed). Another
 * user's claim is refused with EACCES unless the caller has CAP_SYS_ADMIN.
 */
struct gba_locals {
	__u32 group;		/* in: below GBA_IOCTL_GROUPS */
	__u32 count;		/* out */
	struct gba_local entries[GBA_IOCTL_MAX_LOCAL]; /* out: by local index */
};

#define GBA_IOCTL_MAGIC 0xBA
#define GBA_IOC_INFO _IOR(GBA_IOCTL_MAGIC, 0, struct gba_info)
#define GBA_IOC_CLAIM _IOWR(GBA_IOCTL_MAGIC, 1, struct gba_claim_req)
#define GBA_IOC_STATE _IOR(GBA_IOCTL_MAGIC, 2, struct gba_state)
#define GBA_IOC_CLAIMS _IOR(GBA_IOCTL_MAGIC, 3, struct gba_claims)
#define GBA_IOC_LOCALS _IOWR(GBA_IOCTL_MAGIC, 4, struct gba_locals)

#endif /* _UAPI_GBA_IOCTL_H */
