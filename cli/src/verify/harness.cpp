// The co-simulation harness: the Verilated register block (top class Vtop, the wrapper with
// flat ports) driven by a line protocol on stdin/stdout, one reply line per command:
//   r ADDR              one 32-bit APB4 read      -> "ok DATA" | "err slverr" | "err timeout"
//   w ADDR DATA STRB    one APB4 write            -> "ok" | "err slverr" | "err timeout"
//   h INDEX VALUE       hardware writes field INDEX (the _hwif.tsv row) for one cycle -> "ok"
//   s INDEX VALUE       drives strap input INDEX (the _straps.tsv row); the field takes it at
//                       the next reset                                      -> "ok" | "err no strap"
//   o INDEX             after idle cycles if anything happened since the last `o` or `p` (a
//                       64-bit register's buffered write commits a cycle after its last
//                       transfer), the output to hardware INDEX (a `value` row of
//                       _hwout.tsv)                              -> "ok VALUE"
//   p                   after idle cycles as `o` (a write's pulses come a cycle or two after
//                       it), the pulses to hardware (the `pulse` rows of _hwout.tsv) that were
//                       high since the last `p` or reset, and clears them
//                                                  -> "ok" then " INDEX:CYCLES" for each
//   reset               synchronous reset (clears the pulse counts too) -> "ok"
// Numbers are hexadecimal. End of input ends the process. Built by `gba verify --rtl`.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>

#include "Vtop.h"
#include "verilated.h"

static Vtop* top;

// Whether a transfer, hardware write or reset came since the last settle().
static bool active = true;

// set_strap(index, value) and STRAPS, written by `gba verify` from the RTL's _straps.tsv (the
// wrapper's strap inputs are named after the design's fields, which this file cannot know),
// and PULSES, the number of pulse rows in its _hwout.tsv.
#include "design.inc"

static void tick() {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
}

static void reset() {
    active = true;
    top->s_apb_psel = 0;
    top->s_apb_penable = 0;
    top->hw_we = 0;
    top->rst = 1;
    top->pulse_clear = 1;
    tick();
    tick();
    top->rst = 0;
    top->pulse_clear = 0;
    tick();
}

// A few idle cycles after activity, so that what it started has arrived: a 64-bit
// register's buffered write commits a cycle after its last transfer, and a single pulse is
// high the cycle after that. Nothing to wait for when nothing happened.
static void settle() {
    if (active) {
        for (int i = 0; i < 3; i++) {
            tick();
        }
        active = false;
    }
}

// The pulse counts since the last call, appended to `out` as " INDEX:CYCLES" (non-zero
// ones), then cleared.
static void take_pulses(char* out, size_t size) {
    settle();
    size_t used = strlen(out);
    for (unsigned long long i = 0; i < PULSES; i++) {
        top->pulse_sel = i;
        top->eval();
        if (top->pulse_count != 0 && used < size) {
            used += snprintf(out + used, size - used, " %llx:%x", i, (unsigned)top->pulse_count);
        }
    }
    top->pulse_clear = 1;
    tick();
    top->pulse_clear = 0;
}

// One APB4 transfer: the setup phase, then the access phase until PREADY (sampled before
// the rising edge that completes it). 0: done, 1: PSLVERR, 2: no PREADY in 64 cycles.
static int transfer(bool write, uint32_t addr, uint32_t data, uint32_t strb, uint32_t* rdata) {
    active = true;
    top->s_apb_psel = 1;
    top->s_apb_penable = 0;
    top->s_apb_pwrite = write;
    top->s_apb_pprot = 0;
    top->s_apb_paddr = addr;
    top->s_apb_pwdata = data;
    top->s_apb_pstrb = strb;
    tick();
    top->s_apb_penable = 1;
    for (int cycle = 0; cycle < 64; cycle++) {
        top->clk = 0;
        top->eval();
        bool ready = top->s_apb_pready;
        uint32_t value = top->s_apb_prdata;
        bool error = top->s_apb_pslverr;
        top->clk = 1;
        top->eval();
        if (ready) {
            top->s_apb_psel = 0;
            top->s_apb_penable = 0;
            *rdata = value;
            return error ? 1 : 0;
        }
    }
    top->s_apb_psel = 0;
    top->s_apb_penable = 0;
    return 2;
}

static void reply(int status, const char* ok) {
    if (status == 0) {
        fputs(ok, stdout);
    } else {
        fputs(status == 1 ? "err slverr\n" : "err timeout\n", stdout);
    }
}

int main(int argc, char** argv) {
    // Flops without a reset (a wide register's read buffer) power up random, as in silicon,
    // not 0 (built with --x-initial unique); a fixed seed keeps runs the same.
    Verilated::randReset(2);
    Verilated::randSeed(1);
    Verilated::commandArgs(argc, argv);
    top = new Vtop;
    // Inputs power up random too: drive each (a strap with 0 until an `s` command).
    for (unsigned long long i = 0; i < STRAPS; i++) {
        set_strap(i, 0);
    }
    top->hw_sel = 0;
    top->hw_next = 0;
    top->out_sel = 0;
    top->pulse_sel = 0;
    top->s_apb_pwrite = 0;
    top->s_apb_pprot = 0;
    top->s_apb_paddr = 0;
    top->s_apb_pwdata = 0;
    top->s_apb_pstrb = 0;
    reset();
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        unsigned long long a = 0, b = 0, c = 0;
        uint32_t value = 0;
        char out[64];
        // `reset` first: "r %llx" would take it as a read of 0xe ("r" then hex "e").
        if (strncmp(line, "reset", 5) == 0) {
            reset();
            fputs("ok\n", stdout);
        } else if (sscanf(line, "o %llx", &a) == 1) {
            settle();
            top->out_sel = a;
            top->eval();
            printf("ok %llx\n", (unsigned long long)top->out_value);
        } else if (line[0] == 'p' && (line[1] == '\n' || line[1] == 0)) {
            static char pulses[65536];
            strcpy(pulses, "ok");
            take_pulses(pulses, sizeof pulses - 2);
            fputs(pulses, stdout);
            fputs("\n", stdout);
        } else if (sscanf(line, "r %llx", &a) == 1) {
            int status = transfer(false, (uint32_t)a, 0, 0, &value);
            snprintf(out, sizeof out, "ok %x\n", value);
            reply(status, out);
        } else if (sscanf(line, "w %llx %llx %llx", &a, &b, &c) == 3) {
            reply(transfer(true, (uint32_t)a, (uint32_t)b, (uint32_t)c, &value), "ok\n");
        } else if (sscanf(line, "h %llx %llx", &a, &b) == 2) {
            top->hw_sel = a;
            top->hw_next = b;
            top->hw_we = 1;
            active = true;
            tick();
            top->hw_we = 0;
            fputs("ok\n", stdout);
        } else if (sscanf(line, "s %llx %llx", &a, &b) == 2) {
            if (a < STRAPS) {
                set_strap(a, b);
                fputs("ok\n", stdout);
            } else {
                fputs("err no strap\n", stdout);
            }
        } else {
            fputs("err unknown command\n", stdout);
        }
        fflush(stdout);
    }
    top->final();
    delete top;
    return 0;
}
