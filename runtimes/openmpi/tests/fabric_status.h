/* Reading the simulator fabric of a test job: one value of `gba sim status --json` (the fabric
 * directory and the gba binary come from GBA_FABRIC and GBA_BIN). No MPI: the OpenSHMEM tests
 * include it too. */
#ifndef FABRIC_STATUS_H
#define FABRIC_STATUS_H
#include <stdio.h>
#include <stdlib.h>

/* The value of EXPR, a Python expression over the status document `s` (e.g.
 * "s['port_reports'][0]['barriers_completed']"), or -1 when the fabric is not known or the
 * command fails (the caller then skips its counter assertions or fails, as it says). */
static inline long long fabric_status_value(const char *expr)
{
    const char *fabric = getenv("GBA_FABRIC"), *bin = getenv("GBA_BIN");
    char cmd[2048], line[128];
    long long value = -1;
    FILE *p;
    if (!fabric || !bin) {
        return -1;
    }
    snprintf(cmd, sizeof(cmd),
             "%s sim status --json --path '%s' | python3 -c "
             "\"import json, sys; s = json.load(sys.stdin); print(%s)\"",
             bin, fabric, expr);
    if (!(p = popen(cmd, "r"))) {
        return -1;
    }
    if (!fgets(line, sizeof(line), p) || 1 != sscanf(line, "%lld", &value)) {
        value = -1;
    }
    return 0 == pclose(p) ? value : -1;
}

/* BARRIERS_COMPLETED of PORT, or -1 (above). */
static inline long long fabric_completed(int port)
{
    char expr[96];
    snprintf(expr, sizeof(expr), "s['port_reports'][%d]['barriers_completed']", port);
    return fabric_status_value(expr);
}

/* Groups enabled on any port of the fabric, or -1 (above). */
static inline int fabric_groups_enabled(void)
{
    return (int)fabric_status_value("len(s['groups'])");
}
#endif
