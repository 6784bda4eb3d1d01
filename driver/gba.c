// SPDX-License-Identifier: GPL-2.0
/*
 * gba: the kernel driver of a Global Barrier Accelerator port, for shared nodes
 * (ARCHITECTURE.md, "Trust on a shared node"; docs/admin.md).
 *
 * User space never writes a group's configuration page: it asks for a group by ioctl, and the
 * driver resets the group, writes MEMBER_MASK, MEMBER_COUNT, LOCAL_MEMBER_ID and RELEASE_ADDR
 * itself, RELEASE_ADDR pointing into DMA memory the driver allocated. A claim belongs to the
 * open files that won or joined it; when the last one is released (close, exit, kill) the
 * driver resets the group and only then frees the memory. mmap gives a file only the run-time
 * page of the group it holds and the claim's shared memory, so the hot path (a store to
 * ARRIVAL, a load of the flag) never enters the kernel.
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
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/version.h>

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

/* A group held on a port: shared by the files that won or joined it. */
struct gba_claim {
	struct gba_port *port;
	u32 group;
	u64 key;
	kuid_t uid;
	struct pid *winner;		/* diagnosis only: never used to decide liveness */
	u64 members[GBA_IOCTL_MEMBER_WORDS];
	u32 member_count;
	u32 local;
	u64 indices;			/* local indices of the files in the claim */
	u32 files;
	/* Per local index, the process that claimed with it (diagnosis: GBA_IOC_LOCALS). */
	struct pid *pids[GBA_IOCTL_MAX_LOCAL];
	kuid_t uids[GBA_IOCTL_MAX_LOCAL];
	u32 ranks[GBA_IOCTL_MAX_LOCAL];
	void *shared;			/* GBA_IOCTL_SHARED_SIZE bytes of coherent DMA memory */
	dma_addr_t shared_dma;
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
	struct mutex lock;		/* claims[], gone, every register write */
	struct gba_claim *claims[GBA_IOCTL_GROUPS];
	bool gone;			/* the PCI function was removed: no more MMIO */
};

/* An open file: at most one claim. */
struct gba_file {
	struct gba_port *port;
	struct gba_claim *claim;
	u32 index;
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

static void gba_port_free(struct kref *kref)
{
	struct gba_port *port = container_of(kref, struct gba_port, kref);

	ida_free(&gba_ida, port->index);
	pci_dev_put(port->pdev);
	kfree(port);
}

/*
 * Writes RESET and waits for the device to clear it. True when it did: the group is then
 * disabled on this port and the switch writes its flag no more.
 */
static bool gba_reset_group(struct gba_port *port, u32 g)
{
	void __iomem *grp = gba_group(port, g);
	unsigned long deadline = jiffies + msecs_to_jiffies(GBA_RESET_TIMEOUT_MS);

	writeq(GBA_GROUP_CONTROL_RESET_MASK, grp + GBA_GROUP_CONTROL_OFFSET);
	while (readq(grp + GBA_GROUP_CONTROL_OFFSET) & GBA_GROUP_CONTROL_RESET_MASK) {
		if (time_after(jiffies, deadline))
			return false;
		usleep_range(100, 1000);
	}
	return true;
}

/* Frees a claim nobody holds any more: reset first, memory after. Called with port->lock. */
static void gba_claim_free(struct gba_claim *c)
{
	struct gba_port *port = c->port;
	bool reset = true;
	u32 i;

	port->claims[c->group] = NULL;
	if (!port->gone) {
		reset = gba_reset_group(port, c->group);
		if (reset)
			writeq(0, gba_group(port, c->group) + GBA_GROUP_RELEASE_ADDR_OFFSET);
	}
	if (reset) {
		dma_free_coherent(&port->pdev->dev, GBA_IOCTL_SHARED_SIZE, c->shared, c->shared_dma);
	} else {
		/* The device may still write the flag: leaking the memory is the safe choice. */
		dev_warn(&port->pdev->dev,
			 "group %u: RESET not done after %d ms; its %llu bytes of flag memory are kept\n",
			 c->group, GBA_RESET_TIMEOUT_MS, GBA_IOCTL_SHARED_SIZE);
	}
	for (i = 0; i < GBA_IOCTL_MAX_LOCAL; i++)
		put_pid(c->pids[i]);
	put_pid(c->winner);
	kfree(c);
}

/* Records the calling process as local index `index` of `c`. Called with port->lock. */
static void gba_claim_local(struct gba_claim *c, struct gba_file *f, const struct gba_claim_req *req)
{
	put_pid(c->pids[req->index]);
	c->pids[req->index] = get_pid(task_tgid(current));
	c->uids[req->index] = f->uid;
	c->ranks[req->index] = req->rank;
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
	if (port->gone) {
		mutex_unlock(&port->lock);
		kfree(f);
		return -ENODEV;
	}
	kref_get(&port->kref);
	mutex_unlock(&port->lock);
	f->port = port;
	f->uid = file->f_cred->euid;
	file->private_data = f;
	return 0;
}

/* The last reference to the file: its mappings are gone too (each holds one). */
static int gba_release(struct inode *inode, struct file *file)
{
	struct gba_file *f = file->private_data;
	struct gba_port *port = f->port;
	struct gba_claim *c;

	mutex_lock(&port->lock);
	c = f->claim;
	if (c) {
		c->files--;
		c->indices &= ~BIT_ULL(f->index);
		put_pid(c->pids[f->index]);
		c->pids[f->index] = NULL;
		if (c->files == 0)
			gba_claim_free(c);
	}
	mutex_unlock(&port->lock);
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

	mutex_lock(&port->lock);
	if (port->gone) {
		mutex_unlock(&port->lock);
		return -ENODEV;
	}
	info.device_id = readl(w + GBA_GLOBAL_DEVICE_ID_OFFSET);
	info.version = readl(w + GBA_GLOBAL_VERSION_OFFSET);
	info.caps = readl(w + GBA_GLOBAL_CAPS_OFFSET);
	info.port_id = readl(w + GBA_GLOBAL_PORT_ID_OFFSET);
	info.group_enabled = readl(w + GBA_GLOBAL_GROUP_ENABLED_OFFSET);
	info.groups_busy = readl(w + GBA_GLOBAL_GROUPS_BUSY_OFFSET);
	info.barriers_completed = readq(w + GBA_GLOBAL_BARRIERS_COMPLETED_OFFSET);
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

/* RESET, then the configuration, then ENABLE|ARM. Called with port->lock. */
static bool gba_configure(struct gba_port *port, struct gba_claim *c)
{
	void __iomem *grp = gba_group(port, c->group);
	u32 w;

	if (!gba_reset_group(port, c->group))
		return false;
	for (w = 0; w < GBA_GROUP_MEMBER_MASK_COUNT; w++)
		writeq(c->members[w], grp + GBA_GROUP_MEMBER_MASK_OFFSET + w * GBA_GROUP_MEMBER_MASK_STRIDE);
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
	req->result = result;
	req->reason = reason;
	req->owner_uid = from_kuid_munged(current_user_ns(), c->uid);
	req->files = c->files;
	if (result == GBA_CLAIM_WON || result == GBA_CLAIM_JOINED) {
		req->run_offset = gba_run_offset(c->group);
		req->shared_offset = gba_shared_offset(c->group);
		req->flag_iova = c->shared_dma;
	}
}

/* Joins the held claim `c`, or says why not. Called with port->lock. */
static void gba_join(struct gba_file *f, struct gba_claim *c, struct gba_claim_req *req)
{
	if (c->key != req->key) {
		gba_claim_answer(req, c, GBA_CLAIM_BUSY, GBA_REASON_OTHER_TEAM);
		return;
	}
	if (!uid_eq(c->uid, f->uid) && READ_ONCE(join_policy) != 1) {
		gba_claim_answer(req, c, GBA_CLAIM_DENIED, GBA_REASON_OTHER_UID);
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

/* Takes the free group req->group for f's team, or says why not. Called with port->lock. */
static void gba_win(struct gba_file *f, struct gba_claim_req *req, u32 count)
{
	struct gba_port *port = f->port;
	struct gba_claim *c;

	req->owner_uid = from_kuid_munged(current_user_ns(), f->uid);
	if (gba_held_by(port, f->uid) >= READ_ONCE(groups_per_uid)) {
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_QUOTA;
		return;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (c)
		c->shared = dma_alloc_coherent(&port->pdev->dev, GBA_IOCTL_SHARED_SIZE,
					       &c->shared_dma, GFP_KERNEL);
	if (!c || !c->shared) {
		kfree(c);
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_NO_MEMORY;
		return;
	}
	c->port = port;
	c->group = req->group;
	c->key = req->key;
	c->uid = f->uid;
	c->winner = get_pid(task_tgid(current));
	memcpy(c->members, req->members, sizeof(c->members));
	c->member_count = count;
	c->local = req->local;
	c->indices = BIT_ULL(req->index);
	c->files = 1;
	if (!gba_configure(port, c)) {
		dma_free_coherent(&port->pdev->dev, GBA_IOCTL_SHARED_SIZE, c->shared, c->shared_dma);
		put_pid(c->winner);
		kfree(c);
		req->result = GBA_CLAIM_DENIED;
		req->reason = GBA_REASON_RESET_TIMEOUT;
		return;
	}
	gba_claim_local(c, f, req);
	port->claims[req->group] = c;
	f->claim = c;
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
	if (req.group >= GBA_IOCTL_GROUPS || req.key == 0 || req.flags != 0 || req.reserved != 0 ||
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
	if (port->gone) {
		mutex_unlock(&port->lock);
		return -ENODEV;
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
	if (port->gone || !f->claim) {
		mutex_unlock(&port->lock);
		return port->gone ? -ENODEV : -ENOENT;
	}
	st.group = f->claim->group;
	grp = gba_group(port, st.group);
	st.arrival_count = readl(grp + GBA_GROUP_ARRIVAL_COUNT_OFFSET);
	st.member_count = readl(grp + GBA_GROUP_MEMBER_COUNT_OFFSET);
	st.local_member_id = readl(grp + GBA_GROUP_LOCAL_MEMBER_ID_OFFSET);
	st.control = readq(grp + GBA_GROUP_CONTROL_OFFSET);
	st.status = readq(grp + GBA_GROUP_STATUS_OFFSET);
	st.release_seq = readq(grp + GBA_GROUP_RELEASE_SEQ_OFFSET);
	st.release_addr = readq(grp + GBA_GROUP_RELEASE_ADDR_OFFSET);
	for (w = 0; w < GBA_IOCTL_MEMBER_WORDS; w++) {
		st.member_mask[w] = readq(grp + GBA_GROUP_MEMBER_MASK_OFFSET + w * GBA_GROUP_MEMBER_MASK_STRIDE);
		st.arrived_mask[w] = readq(grp + GBA_GROUP_ARRIVED_MASK_OFFSET + w * GBA_GROUP_ARRIVED_MASK_STRIDE);
	}
	mutex_unlock(&port->lock);
	return copy_to_user(arg, &st, sizeof(st)) ? -EFAULT : 0;
}

static long gba_claims(struct gba_file *f, void __user *arg)
{
	struct gba_port *port = f->port;
	struct gba_claims *all;
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
		e->group = g;
		e->uid = from_kuid_munged(current_user_ns(), c->uid);
		e->pid = pid_vnr(c->winner);
		e->local = c->local;
		e->files = c->files;
		e->member_count = c->member_count;
		e->flag_iova = c->shared_dma;
		all->count++;
	}
	mutex_unlock(&port->lock);
	if (copy_to_user(arg, all, sizeof(*all)))
		ret = -EFAULT;
	kfree(all);
	return ret;
}

/*
 * The files of one claim: pid, uid, local index, team rank and the `entered` word of each,
 * read from the claim's shared memory. What any opener may see of another job (as with
 * GBA_IOC_CLAIMS, never the team key); its timeouts name its own local processes with it.
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

	switch (cmd) {
	case GBA_IOC_INFO:
		return gba_info(f, uarg);
	case GBA_IOC_CLAIM:
		return gba_claim(f, uarg);
	case GBA_IOC_STATE:
		return gba_state(f, uarg);
	case GBA_IOC_CLAIMS:
		return gba_claims(f, uarg);
	case GBA_IOC_LOCALS:
		return gba_locals(f, uarg);
	default:
		return -ENOTTY;
	}
}

static inline void gba_vma_flags(struct vm_area_struct *vma, unsigned long flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

/*
 * Only two mappings exist: the held group's run-time page at its window offset, and the
 * claim's shared memory. Configuration pages, the global page, other groups' pages and other
 * claims' memory are refused, so no process can aim RELEASE_ADDR or read another job's state.
 */
static int gba_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct gba_file *f = file->private_data;
	struct gba_port *port = f->port;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	struct gba_claim *c;
	int ret = -EACCES;

	if (!(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC))
		return -EACCES;
	mutex_lock(&port->lock);
	c = f->claim;
	if (port->gone || !c) {
		mutex_unlock(&port->lock);
		return -EACCES;
	}
	if (off == gba_run_offset(c->group) && len == PAGE_SIZE) {
		gba_vma_flags(vma, VM_IO | VM_DONTEXPAND | VM_DONTDUMP);
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
		ret = io_remap_pfn_range(vma, vma->vm_start, (port->win_phys + off) >> PAGE_SHIFT,
					 PAGE_SIZE, vma->vm_page_prot);
	} else if (off == gba_shared_offset(c->group) && len <= GBA_IOCTL_SHARED_SIZE) {
		gba_vma_flags(vma, VM_DONTEXPAND | VM_DONTDUMP);
		/* dma_mmap_coherent reads vm_pgoff as the offset into the buffer. */
		vma->vm_pgoff = 0;
		ret = dma_mmap_coherent(&port->pdev->dev, vma, c->shared, c->shared_dma,
					GBA_IOCTL_SHARED_SIZE);
	}
	mutex_unlock(&port->lock);
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

static int gba_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct gba_port *port;
	u32 device_id, version;
	int bar, ret;

	/* A configuration page and a run-time page must be separate pages to be mapped apart. */
	BUILD_BUG_ON(PAGE_SIZE > GBA_RUN_PAGE_OFFSET);
	BUILD_BUG_ON(GBA_GROUP_STRIDE != 2 * GBA_RUN_PAGE_OFFSET);
	BUILD_BUG_ON(GBA_IOCTL_SHARED_BASE < GBA_WINDOW_SIZE);
	BUILD_BUG_ON((2 + GBA_IOCTL_MAX_LOCAL) * GBA_IOCTL_LINE > GBA_IOCTL_SHARED_SIZE);

	if (pdev->vendor == IVSHMEM_VENDOR && pdev->device == IVSHMEM_DEVICE && !ivshmem)
		return -ENODEV;
	bar = gba_window_bar(pdev);
	if (bar < 0) {
		dev_err(&pdev->dev, "no memory BAR of at least %#x bytes: not a GBA\n", GBA_WINDOW_SIZE);
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

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	kref_init(&port->kref);
	mutex_init(&port->lock);
	port->pdev = pci_dev_get(pdev);
	port->bar = bar;
	port->win = pcim_iomap_table(pdev)[bar];
	port->win_phys = pci_resource_start(pdev, bar);

	device_id = readl(port->win + GBA_GLOBAL_DEVICE_ID_OFFSET);
	version = readl(port->win + GBA_GLOBAL_VERSION_OFFSET);
	if (device_id != GBA_GLOBAL_DEVICE_ID_RESET_VALUE ||
	    (version & GBA_GLOBAL_VERSION_MAJOR_MASK) != (GBA_GLOBAL_VERSION_RESET_VALUE & GBA_GLOBAL_VERSION_MAJOR_MASK)) {
		dev_err(&pdev->dev, "BAR %d: DEVICE_ID %#x, VERSION %#x: not a GBA of map major %u\n",
			bar, device_id, version, GBA_GLOBAL_VERSION_RESET_VALUE >> GBA_GLOBAL_VERSION_MAJOR_SHIFT);
		ret = -ENODEV;
		goto put;
	}
	port->port_id = readl(port->win + GBA_GLOBAL_PORT_ID_OFFSET);
	if (port->port_id >= GBA_MAX_MEMBERS) {
		dev_err(&pdev->dev, "PORT_ID %u is past MAX_MEMBERS %u\n", port->port_id, GBA_MAX_MEMBERS);
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
	ret = misc_register(&port->misc);
	if (ret) {
		ida_free(&gba_ida, port->index);
		port->index = -1;
		goto put_noida;
	}
	pci_set_drvdata(pdev, port);
	dev_info(&pdev->dev, "/dev/%s: GBA port %u, window BAR %d, %u groups, at most %u per uid\n",
		 port->name, port->port_id, bar, GBA_IOCTL_GROUPS, groups_per_uid);
	return 0;

put:
	port->index = -1;
put_noida:
	pci_dev_put(port->pdev);
	kfree(port);
	return ret;
}

static void gba_remove(struct pci_dev *pdev)
{
	struct gba_port *port = pci_get_drvdata(pdev);
	u32 g;

	misc_deregister(&port->misc);
	mutex_lock(&port->lock);
	/* Files may still be open: their groups are reset now, their memory freed at close. */
	for (g = 0; g < GBA_IOCTL_GROUPS; g++)
		if (port->claims[g] && !gba_reset_group(port, g))
			dev_warn(&pdev->dev, "group %u: RESET not done at removal\n", g);
	port->gone = true;
	mutex_unlock(&port->lock);
	kref_put(&port->kref, gba_port_free);
}

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
};
module_pci_driver(gba_driver);

MODULE_LICENSE("GPL");
/* driver/dkms.conf's PACKAGE_VERSION, which tests/vm/kernel.sh checks against it. */
MODULE_VERSION("0.1.0");
MODULE_DESCRIPTION("Global Barrier Accelerator port: groups owned by open files, for shared nodes");
