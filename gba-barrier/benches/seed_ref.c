/* The seeds' hot path in C, the reference for benches/hot_path.rs and benches/callgrind.sh.
 *
 * Written after the sketch in shared/seeds/001_*.txt (OpenSHMEM scoll component):
 * gba_send_arrival() stores ((member_id << 32) | sequence) into the group's ARRIVAL register
 * and then calls opal_atomic_wmb(); gba_poll_release() does opal_atomic_rmb() and compares the
 * release flag with `>=`. On x86-64, OpenMPI's wmb/rmb are compiler barriers, as the release
 * and acquire fences below compile to. Kept as the seed wrote it, including its two defects
 * (the barrier comes *after* the doorbell store, so it orders nothing before it; and the
 * `>=` comparison breaks when the 32-bit sequence wraps): it is the reference for cost, not
 * for correctness. Offsets are the datasheet's (docs/datasheet.md section 3). */
#include <stdbool.h>
#include <stdint.h>

#define GBA_GROUP_REG_BASE(g) (0x10000u + (uint64_t)(g) * 0x2000u)
#define GBA_REG_ARRIVAL 0x1010u
#define opal_atomic_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define opal_atomic_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)

typedef struct gba_device {
    void *base_addr;
} gba_device_t;

typedef struct gba_local_state {
    volatile uint64_t *release_flag;
} gba_local_state_t;

int gba_send_arrival(gba_device_t *device, uint32_t group_id, uint32_t member_id,
                     uint32_t sequence) {
    volatile uint64_t *arrival_reg;
    uint64_t arrival_value;

    arrival_value = ((uint64_t)member_id << 32) | sequence;
    arrival_reg = (volatile uint64_t *)((char *)device->base_addr + GBA_GROUP_REG_BASE(group_id) +
                                        GBA_REG_ARRIVAL);
    *arrival_reg = arrival_value;
    opal_atomic_wmb();
    return 0;
}

static inline bool gba_poll_release(gba_local_state_t *state, uint64_t seq) {
    opal_atomic_rmb();
    return (*(state->release_flag) >= seq);
}

/* One barrier whose release is already there: arrive, then one poll. As a function. */
bool gba_seed_arrive_poll(gba_device_t *device, gba_local_state_t *state, uint32_t group_id,
                          uint32_t member_id, uint32_t sequence) {
    gba_send_arrival(device, group_id, member_id, sequence);
    return gba_poll_release(state, sequence);
}

/* `n` barriers with everything inlined, as in the seed's coll barrier loop; returns how many
 * were released at the first poll (all of them, with a released flag). */
uint64_t gba_seed_loop(gba_device_t *device, gba_local_state_t *state, uint32_t group_id,
                       uint32_t member_id, uint64_t n) {
    uint64_t released = 0;
    for (uint64_t i = 1; i <= n; i++) {
        uint32_t sequence = (uint32_t)i;
        gba_send_arrival(device, group_id, member_id, sequence);
        released += gba_poll_release(state, sequence);
    }
    return released;
}

/* The seed's barrier function itself (seed 001, mca_scoll_gba_barrier without its fallback
 * branch): the sequence lives in the module and is incremented there, as ours is. */
typedef struct gba_seed_module {
    gba_device_t *device;
    gba_local_state_t local_state;
    uint32_t group_id;
    uint32_t member_id;
    uint32_t barrier_sequence;
} gba_seed_module_t;

/* Stands in for opal_progress(); never reached with a released flag. */
__attribute__((noinline)) void gba_seed_progress(void) { __asm__ volatile("" ::: "memory"); }

static inline int seed_barrier(gba_seed_module_t *m) {
    uint32_t sequence = ++m->barrier_sequence;
    gba_send_arrival(m->device, m->group_id, m->member_id, sequence);
    while (!gba_poll_release(&m->local_state, sequence)) {
        gba_seed_progress();
    }
    return 0;
}

int gba_seed_barrier(gba_seed_module_t *m) { return seed_barrier(m); }

uint64_t gba_seed_barrier_loop(gba_seed_module_t *m, uint64_t n) {
    uint64_t done = 0;
    for (uint64_t i = 0; i < n; i++) {
        done += seed_barrier(m) == 0;
    }
    return done;
}
