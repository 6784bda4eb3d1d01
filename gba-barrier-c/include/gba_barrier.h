#ifndef GBA_BARRIER_H
#define GBA_BARRIER_H

/*
 * Generated from gba-barrier-c/src/ by cbindgen (tests/header.rs). Do not edit:
 * change the Rust side and run `GBA_BLESS=1 cargo test -p gba-barrier-c --test header`.
 *
 * libgba_barrier: barriers on the Global Barrier Accelerator. Every function returns GBA_OK
 * (0) or a negative GBA_ERR_* code; gba_strerror(code) names it and gba_last_error() gives
 * this thread's last detailed message. Handles are opaque; a NULL, destroyed or foreign
 * handle is refused with GBA_ERR_NULL or GBA_ERR_BAD_HANDLE.
 *
 * Making a barrier: gba_device_open, then gba_team_create with the runtime's allgather (every
 * rank gets the same verdict: offloaded, or fall back together), then gba_team_wait.
 * gba_barrier_create is the layer beneath, for a group and members agreed on already.
 */

#include <stdint.h>
#include <stddef.h>

// The version of this C ABI: raised by one with every change to the header's declarations
// (a new or changed function, type, constant or meaning; `tests/header.rs` fails until it
// is), and recorded in CHANGELOG.md. A caller that needs an ABI at least N checks
// `GBA_ABI_VERSION >= N` at compile time. A changed meaning gets a new name.
#define GBA_ABI_VERSION 4

// Success.
#define GBA_OK 0

// A required pointer argument was NULL.
#define GBA_ERR_NULL -1

// The handle was destroyed, belongs to another kind, or was never a handle.
#define GBA_ERR_BAD_HANDLE -2

// An argument is out of range (group id, member set, buffer size).
#define GBA_ERR_INVALID -3

// The device could not be opened (no such path, simulator fabric or port).
#define GBA_ERR_NO_DEVICE -4

// The device is not a GBA, or of an unsupported major version.
#define GBA_ERR_NOT_GBA -5

// The group is held by another job: agree on another group id and retry.
#define GBA_ERR_GROUP_BUSY -6

// The device refused the group's configuration (STATUS.ERROR_CODE; see gba_last_error).
#define GBA_ERR_CONFIG -7

// A wait or a configuration did not complete in time (gba_last_error names who is missing).
#define GBA_ERR_TIMEOUT -8

// The device reported an error during an episode; the group must be recreated.
#define GBA_ERR_DEVICE -9

// `arrive` while an arrival is pending, or `test`/`wait_pending` with none pending.
#define GBA_ERR_PENDING -10

// An operating-system or memory failure (mapping, DMA memory).
#define GBA_ERR_IO -11

// A bug inside the library was caught at the boundary.
#define GBA_ERR_PANIC -12

// The device still has barriers: destroy them before closing it.
#define GBA_ERR_BUSY -13

// The runtime's out-of-band allgather failed during `gba_team_create` (no verdict).
#define GBA_ERR_OOB -14

// Another thread is inside this barrier or team handle right now (one thread at a time per
// handle); nothing was done.
#define GBA_ERR_IN_USE -15

// This host's arbiter refused the group to this user: its quota of groups on the port is
// used (`GBA_GROUP_QUOTA`, or the kernel driver's `groups_per_uid`), or the team's claim is
// another user's (gba_last_error says which). Another group id does not help.
#define GBA_ERR_DENIED -16

// Words of a member mask (`uint64_t mask[GBA_MEMBER_WORDS]`): bit m of word m / 64 is member
// m. The spec's MEMBER_MASK count (checked when this library builds).
#define GBA_MEMBER_WORDS 12

// The most members a mask can hold (`GBA_MEMBER_WORDS * 64`); a device supports
// `gba_device_info.max_members` of them. (The register map's limits, `GBA_MAX_MEMBERS` and
// `GBA_MAX_GROUPS`, are defined once, in the generated `gba_regs.h`, which a program may
// include beside this header.)
#define GBA_MEMBER_CAPACITY (GBA_MEMBER_WORDS * 64)

// `gba_team_set_wait_policy`: spin first, then drive progress, then yield (every member
// has a core of its own).
#define GBA_WAIT_SPIN 0

// `gba_team_set_wait_policy`: give the CPU away from the first miss (the node runs more of
// the job's processes than it has cores).
#define GBA_WAIT_YIELD 1

// The default configure timeout, for callers that want it: `gba_barrier_create` with
// `timeout_ns` 0 waits for ever, as every wait with 0 does.
#define GBA_DEFAULT_CONFIGURE_TIMEOUT_NS 10000000000

// Bytes of `gba_verdict.text`, NUL included.
#define GBA_VERDICT_TEXT 160

// One member's barrier over a configured group (opaque).
typedef struct gba_barrier gba_barrier;

// An opened device (opaque).
typedef struct gba_device gba_device;

// One rank's team over a configured group (opaque).
typedef struct gba_team gba_team;

// What a device says about itself (DEVICE_ID, VERSION, CAPS, PORT_ID).
typedef struct {
  // DEVICE_ID: 0x4742_4131 ("GBA1") on a GBA.
  uint32_t device_id;
  // VERSION.MAJOR: software refuses a major version it does not know.
  uint16_t version_major;
  // VERSION.MINOR: additions only.
  uint16_t version_minor;
  // Groups 0 .. max_groups exist (CAPS.MAX_GROUPS).
  uint32_t max_groups;
  // Members 0 .. max_members exist (CAPS.MAX_MEMBERS).
  uint32_t max_members;
  // This host's switch port: its member id in every group.
  uint32_t port_id;
} gba_device_info;

// The runtime's out-of-band allgather: every rank of the team calls it with the same `len`;
// `recv` (of `len * size` bytes) receives rank i's `send` at offset `i * len`. Returns 0 on
// success, anything else on failure. `ctx` is the pointer given to `gba_team_create`.
typedef int (*gba_oob_allgather_fn)(const void *send, void *recv, size_t len, void *ctx);

// How a team is created (NULL params: the defaults).
typedef struct {
  // How long the group's configuration may wait for READY; 0: no limit
  // (`GBA_DEFAULT_CONFIGURE_TIMEOUT_NS` is the default with NULL params).
  uint64_t configure_timeout_ns;
} gba_team_params;

// The team's verdict, identical on every rank.
typedef struct {
  // 1: the barrier runs on the GBA (use the team); 0: use a software barrier.
  int offloaded;
  // The agreed group when offloaded, else UINT32_MAX.
  uint32_t group;
  // GBA_OK when offloaded; else why (GBA_ERR_NO_DEVICE: a rank has no device;
  // GBA_ERR_INVALID: a port shared or out of range; GBA_ERR_GROUP_BUSY: no common free
  // group; GBA_ERR_CONFIG: refused; GBA_ERR_TIMEOUT: not READY in time; GBA_ERR_DENIED:
  // the rank's user is at its group quota, or another user holds the team's claim).
  int reason;
  // The team rank that caused the fallback, -1 when offloaded.
  int32_t rank;
  // One line for the user (NUL-terminated), the same on every rank.
  char text[GBA_VERDICT_TEXT];
} gba_verdict;

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// Opens a device: `"sim:<fabric-dir>#<port>"` or `"/dev/uioN"`; NULL means the `GBA_DEVICE`
// environment variable.
//
// # Safety
// - `path` is NULL or a NUL-terminated string;
// - `out` is NULL or valid for writing one pointer.
int gba_device_open(const char *path, gba_device **out);

// Closes a device. Fails with `GBA_ERR_BUSY` while barriers created on it exist.
//
// # Safety
// `device` is NULL or a value from `gba_device_open` (a closed one is detected); no other
// thread uses the device during the call.
int gba_device_close(gba_device *device);

// Reads the device's identity and limits.
//
// # Safety
// `device` is NULL or from `gba_device_open`; `out` is NULL or valid for writing one
// `gba_device_info`.
int gba_device_info_get(const gba_device *device, gba_device_info *out);

// The groups free on the whole switch (GROUPS_BUSY clear) and not claimed through this
// device: bit g set means group g is free. Members of a job AND their masks and take the
// lowest common bit.
//
// # Safety
// `device` is NULL or from `gba_device_open`; `out_mask` is NULL or valid for writing.
int gba_device_free_groups(const gba_device *device, uint32_t *out_mask);

// Installs a function the barriers of this device call while they wait (NULL clears it).
//
// # Safety
// `device` is NULL or from `gba_device_open`; `function`, if not NULL, may be called with
// `argument` from any thread waiting on this device's barriers while it is installed.
int gba_device_set_progress_hook(gba_device *device, void (*function)(void *argument), void *argument);

// Lets the device make progress once (steps the simulator; nothing on hardware).
//
// # Safety
// `device` is NULL or from `gba_device_open`.
int gba_device_progress(gba_device *device);

// BARRIERS_COMPLETED of this device's port: episodes completed in all its groups.
//
// # Safety
// `device` is NULL or from `gba_device_open`; `out` is NULL or valid for writing.
int gba_device_barriers_completed(const gba_device *device, uint64_t *out);

// The layer beneath `gba_team_create`, for callers that agreed on the group id and the
// members already (no agreement, no fallback, no host combining): a runtime creates a team.
// Claims group `group` (agreed on by all members), configures it with the member set
// `member_mask[0..nwords]` (bit m of word m/64: member m; nwords <= GBA_MEMBER_WORDS) and
// waits up to `timeout_ns` for READY (0: no limit, as for every wait here; pass
// `GBA_DEFAULT_CONFIGURE_TIMEOUT_NS` for the usual 10 s). `GBA_ERR_GROUP_BUSY` is retryable with another id.
//
// # Safety
// `device` is NULL or from `gba_device_open`; `member_mask` is valid for reading `nwords`
// words (or NULL with `nwords` 0); `out` is NULL or valid for writing one pointer.
int gba_barrier_create(gba_device *device, uint32_t group, const uint64_t *member_mask, size_t nwords, uint64_t timeout_ns, gba_barrier **out);

// The barrier: arrive and wait until every member arrived. `timeout_ns` 0: no limit;
// on `GBA_ERR_TIMEOUT` the episode stays pending (finish it with `gba_barrier_wait_pending`)
// and `gba_last_error` names the missing members.
//
// # Safety
// `barrier` is NULL or from `gba_barrier_create` (a destroyed one is detected; another
// thread inside it at the same time gets `GBA_ERR_IN_USE`).
int gba_barrier_wait(gba_barrier *barrier, uint64_t timeout_ns);

// Split phase, first half: arrive for the next episode without waiting.
//
// # Safety
// As for `gba_barrier_wait`.
int gba_barrier_arrive(gba_barrier *barrier);

// Split phase: poll the pending episode once (driving progress once); `*out_done` is 1 when
// it is complete (and no longer pending), else 0. A failed group returns `GBA_ERR_DEVICE`,
// as `gba_barrier_wait_pending` does.
//
// # Safety
// As for `gba_barrier_wait`; `out_done` is NULL or valid for writing.
int gba_barrier_test(gba_barrier *barrier, int *out_done);

// Split phase, second half: wait for the pending episode (`timeout_ns` 0: no limit).
//
// # Safety
// As for `gba_barrier_wait`.
int gba_barrier_wait_pending(gba_barrier *barrier, uint64_t timeout_ns);

// Writes a one-line diagnosis (group, episode, members, who is missing, status) into `buf`,
// NUL-terminated and truncated to `len` bytes.
//
// # Safety
// `barrier` is NULL or from `gba_barrier_create`; `buf` is NULL or valid for writing `len`
// bytes.
int gba_barrier_diagnose(gba_barrier *barrier, char *buf, size_t len);

// Destroys a barrier: resets and disables its group on this port and frees its release flag.
//
// # Safety
// `barrier` is NULL or from `gba_barrier_create` (a destroyed one is detected; one that
// another thread is inside gets `GBA_ERR_IN_USE` and stays).
int gba_barrier_destroy(gba_barrier *barrier);

// The name and meaning of a status code, as a static string.
const char *gba_strerror(int status);

// This thread's last detailed error message (what was wrong and what to do), valid until the
// next call into the library on this thread; "" if none.
const char *gba_last_error(void);

// The way to make a barrier. Creates a team: all `size` ranks call it (collectively, like an
// allgather) with their `rank`; the library agrees on a group over `allgather(…, ctx)` and configures it. Returns
// GBA_OK with `*verdict` filled identically on every rank: offloaded (then `*out` is the
// team) or a fallback (then `*out` is NULL; use a software barrier). `device` may be NULL on
// a rank without a device (it still takes part, and the team falls back naming it).
// GBA_ERR_OOB: the allgather failed (the ranks may be out of step; no verdict).
// A verdict comes only after at least one allgather completed, i.e. after every rank called
// gba_team_create: a runtime forming the team inside a barrier may return from that barrier.
//
// # Safety
// `device` is NULL or from `gba_device_open`; `allgather` is an allgather as described at
// `gba_oob_allgather_fn`; `params` is NULL or readable; `out` and `verdict` are writable.
int gba_team_create(gba_device *device, gba_oob_allgather_fn allgather, void *ctx, uint32_t rank, uint32_t size, const gba_team_params *params, gba_team **out, gba_verdict *verdict);

// The team's barrier (`timeout_ns` 0: no limit); as `gba_barrier_wait`.
//
// # Safety
// `team` is NULL or from `gba_team_create` (a destroyed one is detected; another thread
// inside it at the same time gets `GBA_ERR_IN_USE`).
int gba_team_wait(gba_team *team, uint64_t timeout_ns);

// Split phase, first half; as `gba_barrier_arrive`.
//
// # Safety
// As for `gba_team_wait`.
int gba_team_arrive(gba_team *team);

// Split phase: poll once; `*out_done` 1 when complete; as `gba_barrier_test`.
//
// # Safety
// As for `gba_team_wait`; `out_done` is NULL or writable.
int gba_team_test(gba_team *team, int *out_done);

// Split phase, second half (`timeout_ns` 0: no limit); as `gba_barrier_wait_pending`.
//
// # Safety
// As for `gba_team_wait`.
int gba_team_wait_pending(gba_team *team, uint64_t timeout_ns);

// Sets how this member's waits spend the time before the release: `GBA_WAIT_YIELD` gives
// the CPU away from the first miss, `GBA_WAIT_SPIN` spins first. It replaces the team's own
// choice (made from the ranks it counted on this machine against their CPUs), for a runtime
// that knows better: OpenMPI's `mpi_yield_when_idle`, set when mpirun oversubscribes a node
// or by the user. Any other value is `GBA_ERR_INVALID`.
//
// # Safety
// As for `gba_team_wait`.
int gba_team_set_wait_policy(gba_team *team, int policy);

// Destroys a team: its group is parked for the same ranks' next team (at most
// `GBA_TEAM_CACHE` per device, default 2; 0 turns reuse off), else released; closing the
// device releases every parked group.
//
// # Safety
// `team` is NULL or from `gba_team_create` (a destroyed one is detected; another thread
// inside it at the same time gets `GBA_ERR_IN_USE`).
int gba_team_destroy(gba_team *team);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* GBA_BARRIER_H */
