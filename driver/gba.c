// SPDX-License-Identifier: GPL-2.0
/*
 * gba: the kernel driver of a Global Barrier Accelerator port, for shared nodes
 * (docs/design/trust.md; docs/admin.md).
 *
 * User space never writes a group's configuration page: it asks for a group by ioctl, and the
 * driver resets the group, writes MEMBER_MASK, MEMBER_COUNT, LOCAL_MEMBER_ID and RELEASE_ADDR
 * itself, RELEASE_ADDR pointing into DMA memory the driver allocated. A claim belongs to the
 * open files that won or joined it; when the last one is released (close, exit, kill) the
 * driver resets the group and only then frees the memory. mmap gives a file only the run-time
 * page of the group it holds and the claim's shared memory, so the hot path (a store to
 * ARRIVAL, a load of the flag) never enters the kernel.
 *
 * When the port goes away (remove, unbind, a function reset, a PCI error) the driver revokes
 * every open file and zaps every mapping first, then resets every group and clears its
 * RELEASE_ADDR, and only then frees the memory the device wrote into (docs/design/trust.md).
 *
 * Every register offset comes from gba_regs.h, generated from gba.yaml.
 */

#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/version.h>
#include <linux/wait.h>
/* crypto_memneq (from 6.5 in crypto/utils.h, which algapi.h includes) */
#include <crypto/algapi.h>

#include "gba_regs.h"
#include "gba_ioctl.h"

#define DRV_NAME "gba"

/* QEMU's ivshmem-plain: the test guests' GBA port is its BAR 2 (ivshmem=1 only). */
#define IVSHMEM_VENDOR 0x1af4
#define IVSHMEM_DEVICE 0x1110

/* The run-time registers start on the group block's second page. */
#define GBA_RUN_PAGE_OFFSET GBA_GROUP_CONTROL_OFFSET

/* How long the device gets to finish a RESET before the driver gives up on it. */
#define GBA_RESET_TIMEOUT_MS 1000

/* Pages of a claim's shared memory. */
#define GBA_SHARED_PAGES (GBA_IOCTL_SHARED_SIZE >> PAGE_SHIFT)

static bool ivshmem;
module_param(ivshmem, bool, 0444);
MODULE_PARM_DESC(ivshmem, "Also bind QEMU ivshmem-plain (1af4:1110) whose BAR 2 is a GBA window (test guests)");

static unsigned int groups_per_uid = 4;
module_param(groups_per_uid, uint, 0644);
MODULE_PARM_DESC(groups_per_uid, "Groups one uid may hold per port (default 4)");

static unsigned int join_policy;
module_param(join_policy, uint, 0644);
MODULE_PARM_DESC(join_policy, "Who may join a claim: 0 the holder's uid with the team key (default), 1 any uid with the key");

static DEFINE_IDA(gba_ida);

struct gba_port;

/*
 * A group held on a port: shared by the files that won or joined it. Its memory belongs to the
 * port while the claim is in port->claims[]; a revoked claim (the port went away or was reset)
 * has given its memory back to the port and lives on only for the files that still point at
 * it, until the last one is released.
 */
struct gba_claim {
	struct gba_port *port;
	u32 group;
	u8 key[GBA_IOCTL_KEY_BYTES];
	kuid_t uid;
	struct pid *winner;		/* diagnosis only: never used to decide liveness */
	u64 members[GBA_IOCTL_MEMBER_WORDS];
	u32 member_count;
	u32 local;
	u64 indices;			/* local indices of the files in the claim */
	u32 files;
	bool ready;			/* configured: mmap and joins may proceed */
	bool revoked;			/* taken out of claims[] by gba_quiesce */
	/* Per local index, the process that claimed with it (diagnosis: GBA_IOC_LOCALS). */
	struct pid *pids[GBA_IOCTL_MAX_LOCAL];
	kuid_t uids[GBA_IOCTL_MAX_LOCAL];
	u32 ranks[GBA_IOCTL_MAX_LOCAL];
	void *shared;			/* GBA_IOCTL_SHARED_SIZE bytes of coherent DMA memory */
	dma_addr_t shared_dma;
	struct page *pages[GBA_SHARED_PAGES];	/* its pages, for the fault handler */
};

struct gba_port {
	struct kref kref;
	struct pci_dev *pdev;
	void __iomem *win;
	resource_size_t win_phys;	/* the window BAR's bus/physical start, for mmap */
	int bar;
	int index;
	u32 port_id;
	char name[16];
	struct miscdevice misc;
	/*
	 * Every file operation and fault runs inside an SRCU read section that first checks
	 * gone/frozen/gen (gba_revoked). gba_revoke sets them, then waits for the sections in
	 * flight: afterwards no file of an old generation reaches the device or its memory.
	 */
	struct srcu_struct srcu;
	/* claims[], files, busy, gen, gone, frozen. Never held while a RESET is awaited. */
	struct mutex lock;
	struct gba_claim *claims[GBA_IOCTL_GROUPS];
	struct list_head files;		/* every open gba_file: its mappings are zapped at revoke */
	u32 busy;			/* groups whose RESET is awaited outside the lock */
	wait_queue_head_t idle;		/* woken when a busy bit clears */
	u32 gen;			/* bumped at every revoke: older files get -ENODEV */
	bool gone;			/* removed: for good */
	bool frozen;			/* revoked, not back yet (a reset or error recovery) */
};

/* An open file: at most one claim. */
struct gba_file {
	struct gba_port *port;
	struct file *file;
	struct list_head node;		/* in port->files */
	struct gba_claim *claim;
	u32 index;
	u32 gen;			/* port->gen at open */
	kuid_t uid;			/* the opener's effective uid */
};

static inline void __iomem *gba_group(struct gba_port *port, u32 g)
{
	return port->win + GBA_GROUP_OFFSET + (size_t)g * GBA_GROUP_STRIDE;
}

static inline u64 gba_run_offset(u32 g)
{
	return GBA_GROUP_OFFSET + (u64)g * GBA_GROUP_STRIDE + GBA_RUN_PAGE_OFFSET;
}

static inline u64 gba_shared_offset(u32 g)
{
	return GBA_IOCTL_SHARED_BASE + (u64)g * GBA_IOCTL_SHARED_SIZE;
}

/*
 * The file may no longer use the port. Asked inside an SRCU read section of port->srcu, which
 * gba_revoke waits for after making this true.
 */
static bool gba_revoked(struct gba_file *f)
{
	struct gba_port *port = f->port;

	return READ_ONCE(port->gone) || READ_ONCE(port->frozen) || f->gen != READ_ONCE(port->gen);
}

/* What the caller may see of a claim of `uid`: everything when it is its own or an admin's. */
static bool gba_may_see(kuid_t uid)
{
	return uid_eq(uid, current_euid()) || capable(CAP_SYS_ADMIN);
}

static void gba_port_free(struct kref *kref)
{
	struct gba_port *port = container_of(kref, struct gba_port, kref);

	cleanup_srcu_struct(&port->srcu);
	ida_free(&gba_ida, port->index);
	pci_dev_put(port->pdev);
	kfree(port);
}

/*
 * Writes RESET and waits for the device to clear it. True when it did: the group is then
 * disabled on this port and the switch writes its flag no more. A read of all ones is a device
 * that no longer answers (surprise removal): false at once, not after the timeout.
 */
static bool gba_reset_group(struct gba_port *port, u32 g)
{
	void __iomem *grp = gba_group(port, g);
	unsigned long deadline = jiffies + msecs_to_jiffies(GBA_RESET_TIMEOUT_MS);
	u64 control;

	writeq(GBA_GROUP_CONTROL_RESET_MASK, grp + GBA_GROUP_CONTROL_OFFSET);
	for (;;) {
		control = readq(grp + GBA_GROUP_CONTROL_OFFSET);
		if (control == ~0ULL)
			return false;
		if (!(control & GBA_GROUP_CONTROL_RESET_MASK))
			return true;
		if (time_after(jiffies, deadline))
			return false;
		usleep_range(100, 1000);
	}
}

/* RESET, then RELEASE_ADDR cleared and read back: true when the device aims at nothing. */
static bool gba_quiesce_group(struct gba_port *port, u32 g)
{
	void __iomem *addr = gba_group(port, g) + GBA_GROUP_RELEASE_ADDR_OFFSET;

	if (!gba_reset_group(port, g))
		return false;
	writeq(0, addr);
	return readq(addr) == 0;
}

/*
 * Every group at once: RESET written to all, awaited together (one device round trip, not 32
 * in a row), then RELEASE_ADDR cleared and read back. Bit g set: group g aims at nothing.
 */
static u32 gba_quiesce_all(struct gba_port *port)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(GBA_RESET_TIMEOUT_MS);
	u32 g, pending = 0, done = 0;
	u64 control;

	for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
		writeq(GBA_GROUP_CONTROL_RESET_MASK, gba_group(port, g) + GBA_GROUP_CONTROL_OFFSET);
		pending |= BIT(g);
	}
	for (;;) {
		for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
			void __iomem *addr = gba_group(port, g) + GBA_GROUP_RELEASE_ADDR_OFFSET;

			if (!(pending & BIT(g)))
				continue;
			control = readq(gba_group(port, g) + GBA_GROUP_CONTROL_OFFSET);
			/* all ones: the device no longer answers, and no group is known quiet */
			if (control == ~0ULL)
				return done;
			if (control & GBA_GROUP_CONTROL_RESET_MASK)
				continue;
			pending &= ~BIT(g);
			writeq(0, addr);
			if (readq(addr) == 0)
				done |= BIT(g);
		}
		if (!pending || time_after(jiffies, deadline))
			return done;
		usleep_range(100, 1000);
	}
}

static void gba_free_memory(struct gba_port *port, void *cpu, dma_addr_t dma)
{
	if (cpu)
		dma_free_coherent(&port->pdev->dev, GBA_IOCTL_SHARED_SIZE, cpu, dma);
}

/* The device may still write the flag: leaking the memory is the safe choice. */
static void gba_keep_memory(struct gba_port *port, u32 g)
{
	dev_warn(&port->pdev->dev,
		 "group %u: not quiesced (RESET not done in %d ms, or RELEASE_ADDR not cleared); its %llu bytes of flag memory are kept\n",
		 g, GBA_RESET_TIMEOUT_MS, GBA_IOCTL_SHARED_SIZE);
}

/* A claim's bookkeeping, once no file points at it and its memory is the port's or freed. */
static void gba_claim_put(struct gba_claim *c)
{
	u32 i;

	for (i = 0; i < GBA_IOCTL_MAX_LOCAL; i++)
		put_pid(c->pids[i]);
	put_pid(c->winner);
	kfree(c);
}

/* Records the calling process as local index `index` of `c`. Called with port->lock. */
static void gba_claim_local(struct gba_claim *c, struct gba_file *f,
			    const struct gba_claim_req *req)
{
	put_pid(c->pids[req->index]);
	c->pids[req->index] = get_pid(task_tgid(current));
	c->uids[req->index] = f->uid;
	c->ranks[req->index] = req->rank;
}

/* Clears a busy bit (the RESET awaited is over) and wakes who waits for the group. */
static void gba_unbusy(struct gba_port *port, u32 g)
{
	mutex_lock(&port->lock);
	port->busy &= ~BIT(g);
	mutex_unlock(&port->lock);
	wake_up_all(&port->idle);
}

/*
 * Revoke: no file opened before this call reaches the device or the claims' memory again.
 * Its ioctls and mmaps get -ENODEV, and every mapping of every file is zapped, so the next
 * access faults, and the fault handler (which checks the generation) raises SIGBUS.
 */
static void gba_revoke(struct gba_port *port, bool gone)
{
	struct gba_file *f;

	mutex_lock(&port->lock);
	if (gone)
		WRITE_ONCE(port->gone, true);
	WRITE_ONCE(port->frozen, true);
	WRITE_ONCE(port->gen, port->gen + 1);
	mutex_unlock(&port->lock);
	/* Every ioctl, mmap, fault and release in flight has finished, RESET waits included. */
	synchronize_srcu(&port->srcu);
	mutex_lock(&port->lock);
	list_for_each_entry(f, &port->files, node)
		unmap_mapping_range(f->file->f_mapping, 0, 0, 1);
	mutex_unlock(&port->lock);
}

/*
 * Quiesce, after gba_revoke: every claim is taken out of claims[], every group is reset with
 * RELEASE_ADDR cleared and read back, and only then is each claim's memory freed. A group that
 * does not quiesce (RESET not done in time, or a device that answers all ones) keeps its
 * memory for good. No lock is held while a RESET is awaited: files released meanwhile only
 * drop their bookkeeping. Returns the number of claims revoked.
 */
static u32 gba_quiesce(struct gba_port *port)
{
	void *cpu[GBA_IOCTL_GROUPS] = { NULL };
	dma_addr_t dma[GBA_IOCTL_GROUPS] = { 0 };
	u32 g, n = 0, quiet;

	mutex_lock(&port->lock);
	for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
		struct gba_claim *c = port->claims[g];

		if (!c)
			continue;
		n++;
		port->claims[g] = NULL;
		cpu[g] = c->shared;
		dma[g] = c->shared_dma;
		c->shared = NULL;
		c->revoked = true;
		if (c->files == 0)
			gba_claim_put(c);
	}
	mutex_unlock(&port->lock);
	quiet = gba_quiesce_all(port);
	for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
		if (quiet & BIT(g))
			gba_free_memory(port, cpu[g], dma[g]);
		else if (cpu[g])
			gba_keep_memory(port, g);
	}
	return n;
}

/* Lets new files in again after a revoke that the port survived. */
static void gba_rearm(struct gba_port *port)
{
	mutex_lock(&port->lock);
	if (!port->gone)
		WRITE_ONCE(port->frozen, false);
	mutex_unlock(&port->lock);
}

static int gba_open(struct inode *inode, struct file *file)
{
	/* misc_open holds misc_mtx here, and remove deregisters under it: port is alive. */
	struct miscdevice *misc = file->private_data;
	struct gba_port *port = container_of(misc, struct gba_port, misc);
	struct gba_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_lock(&port->lock);
	if (port->gone || port->frozen) {
		mutex_unlock(&port->lock);
		kfree(f);
		return -ENODEV;
	}
	kref_get(&port->kref);
	f->port = port;
	f->file = file;
	f->gen = port->gen;
	f->uid = file->f_cred->euid;
	list_add(&f->node, &port->files);
	mutex_unlock(&port->lock);
	file->private_data = f;
	return 0;
}

/*
 * The last reference to the file: its mappings are gone too (each holds one). The last file
 * of a live claim resets its group, outside the lock (the group busy meanwhile), and frees its
 * memory; of a revoked claim, only its bookkeeping, the memory being gba_quiesce's.
 */
static int gba_release(struct inode *inode, struct file *file)
{
	struct gba_file *f = file->private_data;
	struct gba_port *port = f->port;
	struct gba_claim *c = f->claim;
	bool reset = false, put = false;
	int idx;

	idx = srcu_read_lock(&port->srcu);
	mutex_lock(&port->lock);
	list_del(&f->node);
	if (c) {
		c->files--;
		c->indices &= ~BIT_ULL(f->index);
		put_pid(c->pids[f->index]);
		c->pids[f->index] = NULL;
		if (c->files == 0 && c->revoked) {
			put = true;
		} else if (c->files == 0 && !port->gone && !port->frozen) {
			port->claims[c->group] = NULL;
			port->busy |= BIT(c->group);
			reset = true;
		}
		/* else: a revoke is under way, and its quiesce takes the claim */
	}
	mutex_unlock(&port->lock);
	if (reset) {
		if (gba_quiesce_group(port, c->group))
			gba_free_memory(port, c->shared, c->shared_dma);
		else
			gba_keep_memory(port, c->group);
		gba_unbusy(port, c->group);
		gba_claim_put(c);
	} else if (put) {
		gba_claim_put(c);
	}
	srcu_read_unlock(&port->srcu, idx);
	kfree(f);
	kref_put(&port->kref, gba_port_free);
	return 0;
}

static u32 gba_held_by(struct gba_port *port, kuid_t uid)
{
	u32 g, n = 0;

	for (g = 0; g < GBA_IOCTL_GROUPS; g++)
		if (port->claims[g] && uid_eq(port->claims[g]->uid, uid))
			n++;
	return n;
}

static long gba_info(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	void __iomem *w = port->win;
	struct gba_info info = { 0 };
	bool admin = capable(CAP_SYS_ADMIN);
	u32 g;

	mutex_lock(&port->lock);
	info.device_id = readl(w + GBA_GLOBAL_DEVICE_ID_OFFSET);
	info.version = readl(w + GBA_GLOBAL_VERSION_OFFSET);
	info.caps = readl(w + GBA_GLOBAL_CAPS_OFFSET);
	info.port_id = readl(w + GBA_GLOBAL_PORT_ID_OFFSET);
	info.group_enabled = readl(w + GBA_GLOBAL_GROUP_ENABLED_OFFSET);
	info.groups_busy = readl(w + GBA_GLOBAL_GROUPS_BUSY_OFFSET);
	if (admin) {
		info.barriers_completed = readq(w + GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET);
	} else {
		/* The caller's own groups' episodes: no other job's rate. */
		for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
			struct gba_claim *c = port->claims[g];

			if (c && c->ready && uid_eq(c->uid, current_euid()))
				info.barriers_completed +=
					readq(gba_group(port, g) + GBA_GROUP_RELEASE_SEQ_OFFSET);
		}
	}
	info.groups_per_uid = READ_ONCE(groups_per_uid);
	info.held_by_caller = gba_held_by(port, f->uid);
	info.window_size = GBA_WINDOW_SIZE;
	mutex_unlock(&port->lock);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

/* The member set is well formed and holds this port; its size, or 0 when it is not. */
static u32 gba_member_count(struct gba_port *port, const u64 *members)
{
	u32 w, n = 0;
	u32 last_bits = GBA_MAX_MEMBERS % 64;

	if (last_bits && (members[GBA_IOCTL_MEMBER_WORDS - 1] >> last_bits))
		return 0;
	if (!(members[port->port_id / 64] & BIT_ULL(port->port_id % 64)))
		return 0;
	for (w = 0; w < GBA_IOCTL_MEMBER_WORDS; w++)
		n += hweight64(members[w]);
	return n;
}

/*
 * RESET, then the configuration, then ENABLE|ARM. Called without port->lock, the group busy:
 * nothing else writes its registers meanwhile.
 */
static bool gba_configure(struct gba_port *port, struct gba_claim *c)
{
	void __iomem *grp = gba_group(port, c->group);
	u32 w;

	if (!gba_reset_group(port, c->group))
		return false;
	for (w = 0; w < GBA_GROUP_MEMBER_MASK_COUNT; w++)
		writeq(c->members[w],
		       grp + GBA_GROUP_MEMBER_MASK_OFFSET + w * GBA_GROUP_MEMBER_MASK_STRIDE);
	writel(c->member_count, grp + GBA_GROUP_MEMBER_COUNT_OFFSET);
	writel(port->port_id, grp + GBA_GROUP_LOCAL_MEMBER_ID_OFFSET);
	writeq(c->shared_dma, grp + GBA_GROUP_RELEASE_ADDR_OFFSET);
	/* The configuration reaches the device before ENABLE (the switch reads CONTROL first). */
	wmb();
	writeq(GBA_GROUP_CONTROL_ENABLE_MASK | GBA_GROUP_CONTROL_ARM_MASK,
	       grp + GBA_GROUP_CONTROL_OFFSET);
	return true;
}

static void gba_claim_answer(struct gba_claim_req *req, struct gba_claim *c, u32 result, u32 reason)
{
	bool seen = gba_may_see(c->uid);

	req->result = result;
	req->reason = reason;
	req->owner_uid = seen ? from_kuid_munged(current_user_ns(), c->uid) : GBA_UID_HIDDEN;
	req->files = seen ? c->files : 0;
	if (result == GBA_CLAIM_WON || result == GBA_CLAIM_JOINED) {
		req->run_offset = gba_run_offset(c->group);
		req->shared_offset = gba_shared_offset(c->group);
		/* A bus address is the kernel's, as /proc/self/pagemap's frames are. */
		if (capable(CAP_SYS_ADMIN))
			req->flag_iova = c->shared_dma;
	}
}

/* Joins the held, configured claim `c`, or says why not. Called with port->lock. */
static void gba_join(struct gba_file *f, struct gba_claim *c, struct gba_claim_req *req)
{
	/*
	 * Another uid's claim and a wrong key are one answer, and the key is compared in constant
	 * time whatever the uid: a claim says nothing of another team's key.
	 */
	bool key = !crypto_memneq(c->key, req->key, sizeof(c->key));
	bool uid = uid_eq(c->uid, f->uid) || READ_ONCE(join_policy) == 1;

	if (!(key & uid)) {
		gba_claim_answer(req, c, GBA_CLAIM_BUSY, GBA_REASON_OTHER_TEAM);
		return;
	}
	if (memcmp(c->members, req->members, sizeof(c->members)) || c->local != req->local) {
		gba_claim_answer(req, c, GBA_CLAIM_DENIED, GBA_REASON_MEMBERS);
		return;
	}
	if ((c->indices & BIT_ULL(req->index)) || c->files >= c->local) {
		gba_claim_answer(req, c, GBA_CLAIM_DENIED, GBA_REASON_INDEX);
		return;
	}
	c->files++;
	c->indices |= BIT_ULL(req->index);
	gba_claim_local(c, f, req);
	f->claim = c;
	f->index = req->index;
	gba_claim_answer(req, c, GBA_CLAIM_JOINED, GBA_REASON_NONE);
}

/* The pages of a claim's coherent memory, whatever the DMA layer made of it. */
static int gba_claim_pages(struct device *dev, struct gba_claim *c)
{
	struct sg_table sgt;
	struct scatterlist *sg;
	unsigned int i, k, n = 0;
	int ret;

	ret = dma_get_sgtable(dev, &sgt, c->shared, c->shared_dma, GBA_IOCTL_SHARED_SIZE);
	if (ret)
		return ret;
	for_each_sgtable_sg(&sgt, sg, i)
		for (k = 0; k < (sg->length >> PAGE_SHIFT) && n < GBA_SHARED_PAGES; k++)
			c->pages[n++] = nth_page(sg_page(sg), k);
	sg_free_table(&sgt);
	return n == GBA_SHARED_PAGES ? 0 : -ENOMEM;
}

/* A new claim of the free group req->group: memory allocated, not yet configured. */
static struct gba_claim *gba_claim_new(struct gba_file *f, const struct gba_claim_req *req,
				       u32 count)
{
	struct device *dev = &f->port->pdev->dev;
	struct gba_claim *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->shared = dma_alloc_coherent(dev, GBA_IOCTL_SHARED_SIZE, &c->shared_dma, GFP_KERNEL);
	if (!c->shared) {
		kfree(c);
		return NULL;
	}
	if (gba_claim_pages(dev, c)) {
		dma_free_coherent(dev, GBA_IOCTL_SHARED_SIZE, c->shared, c->shared_dma);
		kfree(c);
		return NULL;
	}
	c->port = f->port;
	c->group = req->group;
	memcpy(c->key, req->key, sizeof(c->key));
	c->uid = f->uid;
	c->winner = get_pid(task_tgid(current));
	memcpy(c->members, req->members, sizeof(c->members));
	c->member_count = count;
	c->local = req->local;
	c->indices = BIT_ULL(req->index);
	c->files = 1;
	return c;
}

/*
 * Takes the free group req->group for f's team, or says why not. Called with port->lock,
 * which it drops while the group's RESET is awaited (the group busy meanwhile: a team-mate's
 * join waits for the outcome) and holds again on return.
 */
static void gba_win(struct gba_file *f, struct gba_claim_req *req, u32 count)
{
	struct gba_port *port = f->port;
	struct gba_claim *c;
	u32 g = req->group;
	bool ok;

	req->owner_uid = from_kuid_munged(current_user_ns(), f->uid);
	if (gba_held_by(port, f->uid) >= READ_ONCE(groups_per_uid)) {
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_QUOTA;
		return;
	}
	c = gba_claim_new(f, req, count);
	if (!c) {
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_NO_MEMORY;
		return;
	}
	port->claims[g] = c;
	port->busy |= BIT(g);
	f->claim = c;
	mutex_unlock(&port->lock);
	ok = gba_configure(port, c);
	mutex_lock(&port->lock);
	port->busy &= ~BIT(g);
	wake_up_all(&port->idle);
	if (!ok) {
		/* RELEASE_ADDR was not written: the memory is nobody's. */
		port->claims[g] = NULL;
		f->claim = NULL;
		gba_free_memory(port, c->shared, c->shared_dma);
		gba_claim_put(c);
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_RESET_TIMEOUT;
		return;
	}
	c->ready = true;
	gba_claim_local(c, f, req);
	f->index = req->index;
	gba_claim_answer(req, c, GBA_CLAIM_WON, GBA_REASON_NONE);
}

static long gba_claim(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	struct gba_claim_req req;
	struct gba_claim *c;
	u32 count;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (req.group >= GBA_IOCTL_GROUPS || (req.key[0] == 0 && req.key[1] == 0) ||
	    req.flags != 0 || req.reserved != 0 ||
	    req.local == 0 || req.local > GBA_IOCTL_MAX_LOCAL || req.index >= req.local)
		return -EINVAL;
	req.result = 0;
	req.reason = GBA_REASON_NONE;
	req.owner_uid = 0;
	req.files = 0;
	req.run_offset = 0;
	req.shared_offset = 0;
	req.flag_iova = 0;

	mutex_lock(&port->lock);
	/* A group whose RESET is awaited: its outcome decides between win and join. */
	while (port->busy & BIT(req.group)) {
		mutex_unlock(&port->lock);
		if (wait_event_interruptible(port->idle, !(READ_ONCE(port->busy) & BIT(req.group))))
			return -ERESTARTSYS;
		mutex_lock(&port->lock);
	}
	/* One claim per file: its release is the claim's release. */
	if (f->claim) {
		mutex_unlock(&port->lock);
		return -EALREADY;
	}
	count = gba_member_count(port, req.members);
	if (count == 0) {
		mutex_unlock(&port->lock);
		return -EDOM;
	}
	c = port->claims[req.group];
	if (c)
		gba_join(f, c, &req);
	else
		gba_win(f, &req, count);
	mutex_unlock(&port->lock);
	return copy_to_user(arg, &req, sizeof(req)) ? -EFAULT : 0;
}

static long gba_state(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	struct gba_state st = { 0 };
	void __iomem *grp;
	u32 w;

	mutex_lock(&port->lock);
	if (!f->claim || !f->claim->ready) {
		mutex_unlock(&port->lock);
		return -ENOENT;
	}
	st.group = f->claim->group;
	grp = gba_group(port, st.group);
	st.arrival_count = readl(grp + GBA_GROUP_ARRIVAL_COUNT_OFFSET);
	st.member_count = readl(grp + GBA_GROUP_MEMBER_COUNT_OFFSET);
	st.local_member_id = readl(grp + GBA_GROUP_LOCAL_MEMBER_ID_OFFSET);
	st.control = readq(grp + GBA_GROUP_CONTROL_OFFSET);
	st.status = readq(grp + GBA_GROUP_STATUS_OFFSET);
	st.release_seq = readq(grp + GBA_GROUP_RELEASE_SEQ_OFFSET);
	/* A bus address is the kernel's (as in gba_claim_answer). */
	if (capable(CAP_SYS_ADMIN))
		st.release_addr = readq(grp + GBA_GROUP_RELEASE_ADDR_OFFSET);
	for (w = 0; w < GBA_IOCTL_MEMBER_WORDS; w++) {
		st.member_mask[w] = readq(grp + GBA_GROUP_MEMBER_MASK_OFFSET +
					  w * GBA_GROUP_MEMBER_MASK_STRIDE);
		st.arrived_mask[w] = readq(grp + GBA_GROUP_ARRIVED_MASK_OFFSET +
					   w * GBA_GROUP_ARRIVED_MASK_STRIDE);
	}
	mutex_unlock(&port->lock);
	return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
}

/*
 * Every claim of the port, for `gba dump` and group choice: of another user's claim (unless
 * the caller has CAP_SYS_ADMIN) only that the group is taken.
 */
static long gba_claims(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	struct gba_claims *all;
	bool admin = capable(CAP_SYS_ADMIN);
	u32 g;
	long ret = 0;

	all = kzalloc(sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	mutex_lock(&port->lock);
	for (g = 0; g < GBA_IOCTL_GROUPS; g++) {
		struct gba_claim *c = port->claims[g];
		struct gba_claim_entry *e = &all->entries[all->count];

		if (!c)
			continue;
		all->count++;
		e->group = g;
		if (!gba_may_see(c->uid)) {
			e->uid = GBA_UID_HIDDEN;
			continue;
		}
		e->uid = from_kuid_munged(current_user_ns(), c->uid);
		e->pid = pid_vnr(c->winner);
		e->local = c->local;
		e->files = c->files;
		e->member_count = c->member_count;
		if (admin)
			e->flag_iova = c->shared_dma;
	}
	mutex_unlock(&port->lock);
	if (copy_to_user(arg, all, sizeof(*all)))
		ret = -EFAULT;
	kfree(all);
	return ret;
}

/*
 * The files of one claim: pid, uid, local index, team rank and the `entered` word of each,
 * read from the claim's shared memory, for the claim's own uid and for CAP_SYS_ADMIN; its
 * timeouts name its own local processes with it. Pids are held as struct pid and named in
 * the caller's pid namespace (0 when not visible there).
 */
static long gba_locals(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	struct gba_locals *all;
	struct gba_claim *c;
	u32 group, i;
	long ret = 0;

	if (get_user(group, (u32 __user *)arg))
		return -EFAULT;
	if (group >= GBA_IOCTL_GROUPS)
		return -EINVAL;
	all = kzalloc(sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	all->group = group;
	mutex_lock(&port->lock);
	c = port->claims[group];
	if (c && !c->ready)
		c = NULL;
	if (c && !gba_may_see(c->uid)) {
		mutex_unlock(&port->lock);
		kfree(all);
		return -EACCES;
	}
	for (i = 0; c && i < GBA_IOCTL_MAX_LOCAL; i++) {
		struct gba_local *e = &all->entries[all->count];
		const u64 *entered = (const u64 *)((u8 *)c->shared + (2 + i) * GBA_IOCTL_LINE);

		if (!(c->indices & BIT_ULL(i)))
			continue;
		e->pid = pid_vnr(c->pids[i]);
		e->uid = from_kuid_munged(current_user_ns(), c->uids[i]);
		e->index = i;
		e->rank = c->ranks[i];
		e->entered = READ_ONCE(*entered);
		all->count++;
	}
	mutex_unlock(&port->lock);
	if (copy_to_user(arg, all, sizeof(*all)))
		ret = -EFAULT;
	kfree(all);
	return ret;
}

static long gba_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct gba_file *f = file->private_data;
	void __user *uarg = (void __user *)arg;
	long ret;
	int idx;

	idx = srcu_read_lock(&f->port->srcu);
	if (gba_revoked(f)) {
		srcu_read_unlock(&f->port->srcu, idx);
		return -ENODEV;
	}
	switch (cmd) {
	case GBA_IOC_INFO:
		ret = gba_info(f, uarg);
		break;
	case GBA_IOC_CLAIM:
		ret = gba_claim(f, uarg);
		break;
	case GBA_IOC_STATE:
		ret = gba_state(f, uarg);
		break;
	case GBA_IOC_CLAIMS:
		ret = gba_claims(f, uarg);
		break;
	case GBA_IOC_LOCALS:
		ret = gba_locals(f, uarg);
		break;
	default:
		ret = -ENOTTY;
	}
	srcu_read_unlock(&f->port->srcu, idx);
	return ret;
}

/*
 * Pages are inserted at fault time, inside the port's SRCU section, so that a revoke (which
 * zaps them after waiting for every section) leaves none behind: the next access faults
 * again, finds the file revoked and gets SIGBUS.
 */
static vm_fault_t gba_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct gba_file *f = vma->vm_file->private_data;
	struct gba_claim *c = READ_ONCE(f->claim);
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long pfn;
	u64 off;
	int idx;

	idx = srcu_read_lock(&f->port->srcu);
	/* mmap checked the offsets against the claim, which a file never changes once ready. */
	if (gba_revoked(f) || !c || !c->ready)
		goto out;
	off = (u64)vmf->pgoff << PAGE_SHIFT;
	if (off == gba_run_offset(c->group)) {
		pfn = (f->port->win_phys + off) >> PAGE_SHIFT;
	} else if (off >= gba_shared_offset(c->group) &&
		   off < gba_shared_offset(c->group) + GBA_IOCTL_SHARED_SIZE) {
		pfn = page_to_pfn(c->pages[(off - gba_shared_offset(c->group)) >> PAGE_SHIFT]);
	} else {
		goto out;
	}
	ret = vmf_insert_pfn(vma, vmf->address, pfn);
out:
	srcu_read_unlock(&f->port->srcu, idx);
	return ret;
}

static const struct vm_operations_struct gba_vm_ops = {
	.fault = gba_fault,
};

/*
 * checkpatch.pl: "LINUX_VERSION_CODE should be avoided". This module is built out of tree, by
 * DKMS, for every kernel a node installs (6.1 and later): vm_flags became read-only in 6.3.
 */
static inline void gba_vma_flags(struct vm_area_struct *vma, unsigned long set,
				 unsigned long clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * Only two mappings exist: the held group's run-time page at its window offset, and the
 * claim's shared memory. Configuration pages, the global page, other groups' pages and other
 * claims' memory are refused, so no process can aim RELEASE_ADDR or read another job's state.
 * Neither can become executable (VM_MAYEXEC cleared), grow, be dumped or be copied privately.
 */
static int gba_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gba_file *f = file->private_data;
	struct gba_port *port = f->port;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	struct gba_claim *c;
	int ret, idx;

	if (!(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC))
		return -EACCES;
	idx = srcu_read_lock(&port->srcu);
	mutex_lock(&port->lock);
	ret = -ENODEV;
	if (gba_revoked(f))
		goto out;
	ret = -EACCES;
	c = f->claim;
	if (!c || !c->ready)
		goto out;
	if (off == gba_run_offset(c->group) && len == PAGE_SIZE) {
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		gba_vma_flags(vma, VM_IO, 0);
	} else if (off == gba_shared_offset(c->group) && len <= GBA_IOCTL_SHARED_SIZE) {
		/* Coherent memory (x86, arm64 servers): the CPU's cacheable mapping is right. */
	} else {
		goto out;
	}
	gba_vma_flags(vma, VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP, VM_MAYEXEC);
	vma->vm_ops = &gba_vm_ops;
	ret = 0;
out:
	mutex_unlock(&port->lock);
	srcu_read_unlock(&port->srcu, idx);
	return ret;
}

static const struct file_operations gba_fops = {
	.owner = THIS_MODULE,
	.open = gba_open,
	.release = gba_release,
	.unlocked_ioctl = gba_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = gba_mmap,
	.llseek = noop_llseek,
};

/* The first memory BAR that holds a whole window. */
static int gba_window_bar(struct pci_dev *pdev)
{
	int bar;

	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++)
		if ((pci_resource_flags(pdev, bar) & IORESOURCE_MEM) &&
		    pci_resource_len(pdev, bar) >= GBA_WINDOW_SIZE)
			return bar;
	return -1;
}

/* The ABI's counts are the spec's (gba.yaml, through the generated gba_regs.h). */
static void __maybe_unused gba_abi_checks(void)
{
	BUILD_BUG_ON(GBA_IOCTL_GROUPS != GBA_MAX_GROUPS);
	BUILD_BUG_ON(GBA_IOCTL_GROUPS != GBA_GROUP_COUNT);
	BUILD_BUG_ON(GBA_IOCTL_MEMBER_WORDS != GBA_GROUP_MEMBER_MASK_COUNT);
	BUILD_BUG_ON(GBA_IOCTL_MEMBER_WORDS != GBA_GROUP_ARRIVED_MASK_COUNT);
	BUILD_BUG_ON(GBA_IOCTL_MEMBER_WORDS * 64 < GBA_MAX_MEMBERS);
	BUILD_BUG_ON(GBA_IOCTL_MEMBER_WORDS * 64 >= GBA_MAX_MEMBERS + 64);
	/* busy and the claims' bitmaps are u32 and u64 */
	BUILD_BUG_ON(GBA_IOCTL_GROUPS > 32);
	BUILD_BUG_ON(GBA_IOCTL_MAX_LOCAL > 64);
	/* A configuration page and a run-time page must be separate pages to be mapped apart. */
	BUILD_BUG_ON(PAGE_SIZE > GBA_RUN_PAGE_OFFSET);
	BUILD_BUG_ON(GBA_GROUP_STRIDE != 2 * GBA_RUN_PAGE_OFFSET);
	BUILD_BUG_ON(GBA_IOCTL_SHARED_BASE < GBA_WINDOW_SIZE);
	BUILD_BUG_ON((2 + GBA_IOCTL_MAX_LOCAL) * GBA_IOCTL_LINE > GBA_IOCTL_SHARED_SIZE);
	BUILD_BUG_ON(GBA_IOCTL_SHARED_SIZE % PAGE_SIZE);
}

static int gba_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct gba_port *port;
	u32 device_id, version;
	int bar, ret;

	if (pdev->vendor == IVSHMEM_VENDOR && pdev->device == IVSHMEM_DEVICE && !ivshmem)
		return -ENODEV;
	bar = gba_window_bar(pdev);
	if (bar < 0) {
		dev_err(&pdev->dev, "no memory BAR of at least %#x bytes: not a GBA\n",
			GBA_WINDOW_SIZE);
		return -ENODEV;
	}
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(bar), DRV_NAME);
	if (ret)
		return ret;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	pci_set_master(pdev);
	/* slot_reset restores it */
	pci_save_state(pdev);

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	ret = init_srcu_struct(&port->srcu);
	if (ret) {
		kfree(port);
		return ret;
	}
	kref_init(&port->kref);
	mutex_init(&port->lock);
	INIT_LIST_HEAD(&port->files);
	init_waitqueue_head(&port->idle);
	port->pdev = pci_dev_get(pdev);
	port->bar = bar;
	port->win = pcim_iomap_table(pdev)[bar];
	port->win_phys = pci_resource_start(pdev, bar);

	device_id = readl(port->win + GBA_GLOBAL_DEVICE_ID_OFFSET);
	version = readl(port->win + GBA_GLOBAL_VERSION_OFFSET);
	if (device_id != GBA_GLOBAL_DEVICE_ID_RESET_VALUE ||
	    (version & GBA_GLOBAL_VERSION_MAJOR_MASK) !=
	    (GBA_GLOBAL_VERSION_RESET_VALUE & GBA_GLOBAL_VERSION_MAJOR_MASK)) {
		dev_err(&pdev->dev, "BAR %d: DEVICE_ID %#x, VERSION %#x: not a GBA of map major %u\n",
			bar, device_id, version,
			GBA_GLOBAL_VERSION_RESET_VALUE >> GBA_GLOBAL_VERSION_MAJOR_SHIFT);
		ret = -ENODEV;
		goto put;
	}
	port->port_id = readl(port->win + GBA_GLOBAL_PORT_ID_OFFSET);
	if (port->port_id >= GBA_MAX_MEMBERS) {
		dev_err(&pdev->dev, "PORT_ID %u is past MAX_MEMBERS %u\n", port->port_id,
			GBA_MAX_MEMBERS);
		ret = -ENODEV;
		goto put;
	}
	ret = ida_alloc(&gba_ida, GFP_KERNEL);
	if (ret < 0)
		goto put;
	port->index = ret;
	snprintf(port->name, sizeof(port->name), DRV_NAME "%d", port->index);
	port->misc.minor = MISC_DYNAMIC_MINOR;
	port->misc.name = port->name;
	port->misc.fops = &gba_fops;
	port->misc.parent = &pdev->dev;
	/* Root only until the administrator's udev rule (99-gba.rules) says otherwise. */
	port->misc.mode = 0600;
	pci_set_drvdata(pdev, port);
	ret = misc_register(&port->misc);
	if (ret) {
		ida_free(&gba_ida, port->index);
		goto put;
	}
	dev_info(&pdev->dev, "/dev/%s: GBA port %u, window BAR %d, %u groups, at most %u per uid\n",
		 port->name, port->port_id, bar, GBA_IOCTL_GROUPS, groups_per_uid);
	return 0;

put:
	pci_set_drvdata(pdev, NULL);
	cleanup_srcu_struct(&port->srcu);
	pci_dev_put(port->pdev);
	kfree(port);
	return ret;
}

/*
 * Unbind, PCI remove, rmmod: no new open, every file revoked, every group quiesced, and only
 * then the claims' memory freed, here, while the device is still this driver's. Files still
 * open keep the port's bookkeeping (kref) until they are released.
 */
static void gba_remove(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);
	ktime_t start = ktime_get();
	u32 n;

	misc_deregister(&port->misc);
	gba_revoke(port, true);
	n = gba_quiesce(port);
	dev_info(&pdev->dev, "/dev/%s removed: %u claims revoked, %u groups quiesced in %lld us\n",
		 port->name, n, GBA_IOCTL_GROUPS, ktime_us_delta(ktime_get(), start));
	kref_put(&port->kref, gba_port_free);
}

/*
 * PCI error recovery: revoke at once; quiesce now if the device still answers, else after the
 * slot reset; let new files in when recovery is done.
 */
static pci_ers_result_t gba_error_detected(struct pci_dev *pdev, pci_channel_state_t state)
{
	struct gba_port *port = pci_get_drvdata(pdev);

	dev_warn(&pdev->dev, "/dev/%s: PCI error (channel state %d): every file revoked\n",
		 port->name, state);
	gba_revoke(port, false);
	switch (state) {
	case pci_channel_io_normal:
		gba_quiesce(port);
		return PCI_ERS_RESULT_CAN_RECOVER;
	case pci_channel_io_frozen:
		return PCI_ERS_RESULT_NEED_RESET;
	default:
		/* remove follows; its quiesce keeps what a dead device may still point at */
		return PCI_ERS_RESULT_DISCONNECT;
	}
}

static pci_ers_result_t gba_slot_reset(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);

	pci_restore_state(pdev);
	pci_save_state(pdev);
	if (readl(port->win + GBA_GLOBAL_DEVICE_ID_OFFSET) != GBA_GLOBAL_DEVICE_ID_RESET_VALUE)
		return PCI_ERS_RESULT_DISCONNECT;
	gba_quiesce(port);
	return PCI_ERS_RESULT_RECOVERED;
}

static void gba_resume(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);

	gba_rearm(port);
	dev_info(&pdev->dev, "/dev/%s: recovered; new claims are served\n", port->name);
}

/* A function reset (sysfs `reset`, or another driver's): the same revoke and quiesce first. */
static void gba_reset_prepare(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);

	gba_revoke(port, false);
	gba_quiesce(port);
}

static void gba_reset_done(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);

	/*
	 * The core restored the state it saved before the reset, which uses up the saved state
	 * (restoring clears it): save it again, or a later slot_reset (AER) restores nothing and
	 * finds the BAR off (all ones).
	 */
	pci_save_state(pdev);
	gba_rearm(port);
	dev_info(&pdev->dev, "/dev/%s: function reset done: every earlier file revoked\n",
		 port->name);
}

static const struct pci_error_handlers gba_err_handlers = {
	.error_detected = gba_error_detected,
	.slot_reset = gba_slot_reset,
	.resume = gba_resume,
	.reset_prepare = gba_reset_prepare,
	.reset_done = gba_reset_done,
};

/*
 * No MODULE_DEVICE_TABLE: the module is loaded by the administrator, never for any ivshmem
 * device a machine happens to have. The GBA's own PCI id is added with new_id (docs/admin.md).
 */
static const struct pci_device_id gba_ids[] = {
	{ PCI_DEVICE(IVSHMEM_VENDOR, IVSHMEM_DEVICE) },
	{ }
};

static struct pci_driver gba_driver = {
	.name = DRV_NAME,
	.id_table = gba_ids,
	.probe = gba_probe,
	.remove = gba_remove,
	.err_handler = &gba_err_handlers,
};
module_pci_driver(gba_driver);

MODULE_LICENSE("GPL");
/* driver/dkms.conf's PACKAGE_VERSION, which tests/vm/kernel.sh checks against it. */
MODULE_VERSION("0.1.0");
MODULE_DESCRIPTION("Global Barrier Accelerator port: groups owned by open files, for shared nodes");
