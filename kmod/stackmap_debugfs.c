// SPDX-License-Identifier: GPL-2.0
/*
 * The module's files, in debugfs (tracefs_create_file is not exported to
 * modules on 6.1): /sys/kernel/debug/stackmap/{stack_map,stats,tracepoints,
 * functions}.
 * All are root only: stack_map shows raw kernel addresses.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "stackmap.h"
#include "stackmap_instance.h"

#define SM_WRITE_MAX	256

static struct dentry *stackmap_dir;

/* Copy a short user write into @buf as a NUL-terminated string. */
static int stackmap_copy_input(char *buf, size_t size,
			       const char __user *ubuf, size_t count)
{
	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}

/* stack_map: "# header", then per stored stack an entry line and frames. */

static void *stackmap_seq_seek(loff_t *pos)
{
	const unsigned long *ips;
	u32 slot;

	for (slot = *pos - 1; slot < stackmap_map.nr_slots; slot++) {
		if (sm_map_slot_stack(&stackmap_map, slot, &ips, NULL, NULL)) {
			*pos = (loff_t)slot + 1;
			return &stackmap_map.slots[slot];
		}
	}
	*pos = (loff_t)stackmap_map.nr_slots + 1;
	return NULL;
}

static void *stackmap_seq_start(struct seq_file *m, loff_t *pos)
{
	/* Released in stackmap_seq_stop(), which seq_file always calls. */
	mutex_lock(&stackmap_lock);
	if (*pos == 0)
		return SEQ_START_TOKEN;
	return stackmap_seq_seek(pos);
}

static void *stackmap_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return stackmap_seq_seek(pos);
}

static void stackmap_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&stackmap_lock);
}

static int stackmap_seq_show(struct seq_file *m, void *v)
{
	struct sm_slot *s = v;
	const unsigned long *ips;
	u32 slot, depth, hits, info, i;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, "# generation %u entries %d/%u frames %d/%u bytes %zu map_id 0x%016llx\n",
			   stackmap_map.generation,
			   atomic_read(&stackmap_map.entries_used),
			   stackmap_map.max_entries,
			   atomic_read(&stackmap_map.frames_used),
			   stackmap_map.max_frames,
			   sm_map_bytes(&stackmap_map), stackmap_map_id);
		return 0;
	}
	slot = s - stackmap_map.slots;
	depth = sm_map_slot_stack(&stackmap_map, slot, &ips, &hits, &info);
	seq_printf(m, "slot %u generation %u hits %u depth %u owner %u %s flags 0x%x\n",
		   slot, stackmap_map.generation, hits, depth,
		   sm_info_owner(info), stackmap_owner_name(sm_info_owner(info)),
		   sm_info_flags(info));
	for (i = 0; i < depth; i++)
		seq_printf(m, " 0x%lx %pS\n", ips[i], (void *)ips[i]);
	return 0;
}

static const struct seq_operations stackmap_seq_ops = {
	.start = stackmap_seq_start,
	.next = stackmap_seq_next,
	.stop = stackmap_seq_stop,
	.show = stackmap_seq_show,
};

static int stackmap_map_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &stackmap_seq_ops);
}

/* "0" resets the map; anything else is -EINVAL. */
static ssize_t stackmap_map_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char buf[8];
	int ret;

	ret = stackmap_copy_input(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	if (!sysfs_streq(buf, "0"))
		return -EINVAL;
	stackmap_reset();
	return count;
}

static const struct file_operations stackmap_map_fops = {
	.owner = THIS_MODULE,
	.open = stackmap_map_open,
	.read = seq_read,
	.write = stackmap_map_write,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* stats: "name value" lines. */

static int stackmap_stats_show(struct seq_file *m, void *v)
{
	struct stackmap_stats sum;
	u64 fallbacks = 0;
	int i;

	stackmap_stats_sum(&sum);
	for (i = 1; i < STACKMAP_FALLBACK_MAX; i++)
		fallbacks += sum.fallback[i];
	seq_printf(m, "lookups %llu\nhits %llu\ninserts %llu\nfallbacks %llu\n",
		   sum.lookups, sum.hits, sum.inserts, fallbacks);
	for (i = 1; i < STACKMAP_FALLBACK_MAX; i++)
		seq_printf(m, "fallback_%s %llu\n", stackmap_fallback_name(i),
			   sum.fallback[i]);
	seq_printf(m, "defines %llu\nredefines %llu\nepochs %llu\nwindows %llu\ntruncated %llu\n",
		   sum.defines, sum.redefines, sum.epochs, sum.windows,
		   sum.truncated);
	seq_printf(m, "refreshes %llu\nrefresh_missed %llu\nrefresh_overflow %llu\n",
		   sum.refreshes, sum.refresh_missed, sum.refresh_overflow);
	seq_printf(m, "untracked_consumers %u\n", stackmap_untracked_consumers());
	seq_printf(m, "dropped_nested %llu\ndropped_empty %llu\ndropped_recursion %llu\n",
		   sum.nested, sum.empty, sum.recursion);
	seq_printf(m, "unpinned %llu\nfunctions_dropped %u\n", sum.unpinned,
		   stackmap_functions_dropped());
	seq_printf(m, "debts %llu\ndiscarded %llu\nafter_loss %llu\n",
		   sum.debts, sum.discarded, sum.after_loss);
	seq_printf(m, "typed_tracepoints %u\n", stackmap_typed_tracepoints());
	mutex_lock(&stackmap_lock);
	seq_printf(m, "map_id 0x%016llx\n", stackmap_map_id);
	seq_printf(m, "resets %u\ngeneration %u\nentries %d\ncapacity %u\n",
		   stackmap_resets, stackmap_map.generation,
		   atomic_read(&stackmap_map.entries_used),
		   stackmap_map.max_entries);
	seq_printf(m, "frames %d\nframes_capacity %u\nframes_wasted %d\nbytes %zu\n",
		   atomic_read(&stackmap_map.frames_used),
		   stackmap_map.max_frames,
		   atomic_read(&stackmap_map.frames_wasted),
		   sm_map_bytes(&stackmap_map));
	mutex_unlock(&stackmap_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stackmap_stats);

/*
 * Control files: each lists what is attached, one per line; writing "name"
 * attaches, "!name" detaches, and a write of only white space does nothing.
 * Where the kind has a clear operation, opening for writing with O_TRUNC (`echo x > file`)
 * first detaches everything, as set_ftrace_filter does.
 */
static void stackmap_control_line(const char *name, void *m)
{
	seq_printf(m, "%s\n", name);
}

static void stackmap_control_dropped(const char *name, void *m)
{
	seq_printf(m, "# dropped %s: matches no function any more\n", name);
}

static int stackmap_control_show(struct seq_file *m, void *v)
{
	const struct stackmap_points *ctl = m->private;
	const struct stackmap_visitor visitor = { stackmap_control_line, m };
	const struct stackmap_visitor dropped = { stackmap_control_dropped, m };

	ctl->visit(&visitor);
	if (ctl->visit_dropped)
		ctl->visit_dropped(&dropped);
	return 0;
}

static int stackmap_control_open(struct inode *inode, struct file *file)
{
	const struct stackmap_points *ctl = inode->i_private;

	if (ctl->clear && (file->f_mode & FMODE_WRITE) &&
	    (file->f_flags & O_TRUNC))
		ctl->clear();
	return single_open(file, stackmap_control_show, inode->i_private);
}

/*
 * Parse a control write: one name, optionally prefixed by '!'.  Return the
 * name in @buf (stripped, empty for white space only) and whether it is a
 * removal, or -EINVAL.
 */
static int stackmap_parse_control(char *buf, size_t size,
				  const char __user *ubuf, size_t count,
				  char **name, bool *remove)
{
	int ret = stackmap_copy_input(buf, size, ubuf, count);

	if (ret)
		return ret;
	*name = strim(buf);
	*remove = **name == '!';
	if (*remove)
		(*name)++;
	if ((*remove && !**name) || strpbrk(*name, " \t\n!"))
		return -EINVAL;
	return 0;
}

static ssize_t stackmap_control_write(struct file *file,
				      const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	const struct stackmap_points *ctl =
		((struct seq_file *)file->private_data)->private;
	char buf[SM_WRITE_MAX];
	bool remove;
	char *name;
	int ret;

	ret = stackmap_parse_control(buf, sizeof(buf), ubuf, count, &name,
				     &remove);
	if (!ret && *name)
		ret = remove ? ctl->detach(name) : ctl->attach(name);
	return ret ? ret : count;
}

static const struct file_operations stackmap_control_fops = {
	.owner = THIS_MODULE,
	.open = stackmap_control_open,
	.read = seq_read,
	.write = stackmap_control_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * stackmap_debugfs_init() - create /sys/kernel/debug/stackmap and its files
 *
 * Under lockdown (LOCKDOWN_DEBUGFS: lockdown=integrity, Secure Boot)
 * debugfs refuses to open any file that has a write bit, so the files are
 * then made read-only: they list the map, the counters and the attachments,
 * and the module parameters (stackmap_params.c) take the writes.
 *
 * Return: 0, or -ENODEV when debugfs is not available.
 */
int stackmap_debugfs_init(void)
{
	umode_t rw = 0600;

	stackmap_dir = debugfs_create_dir("stackmap", NULL);
	if (IS_ERR(stackmap_dir))
		return -ENODEV;
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		rw = 0400;
		pr_info("debugfs is locked down: files read-only, control through /sys/module/stackmap/parameters\n");
	}
	debugfs_create_file("stack_map", rw, stackmap_dir, NULL,
			    &stackmap_map_fops);
	debugfs_create_file("stats", 0400, stackmap_dir, NULL,
			    &stackmap_stats_fops);
	debugfs_create_file("tracepoints", rw, stackmap_dir,
			    (void *)&stackmap_tracepoint_points,
			    &stackmap_control_fops);
	debugfs_create_file("functions", rw, stackmap_dir,
			    (void *)&stackmap_function_points,
			    &stackmap_control_fops);
#ifdef STACKMAP_TEST_FAIL_RECURSION
	/* TEST ONLY (stackmap_attach.c): never in a normal build. */
	debugfs_create_atomic_t("test_fail_recursion", 0600, stackmap_dir,
				&stackmap_test_fail_recursion);
#endif
	return 0;
}

/** stackmap_debugfs_exit() - remove the files; waits for running handlers. */
void stackmap_debugfs_exit(void)
{
	debugfs_remove_recursive(stackmap_dir);
}
