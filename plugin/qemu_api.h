/*
 * The few parts of QEMU's TCG plugin interface (API version 1, as
 * Debian's qemu-user 7.2 exports it) that the recorder's plugin calls.
 * QEMU ships no header with the package, and its own header is GPL, so
 * these declarations were written for this project from QEMU's plugin
 * documentation (docs/devel/tcg-plugins): the names, argument types and
 * the layout of the install information are what qemu-user's exported
 * symbols expect; nothing else of the interface is declared.
 *
 * QEMU resolves the functions below from its own executable when it
 * loads the plugin, and looks up two symbols the plugin must export:
 * qemu_plugin_version (an int, the API version the plugin was built for)
 * and qemu_plugin_install (called once, before the guest runs).
 */
#ifndef DCFG_PLUGIN_QEMU_API_H
#define DCFG_PLUGIN_QEMU_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The plugin is built with -fvisibility=hidden: QEMU must still see these. */
#define DCFG_QEMU_EXPORT __attribute__((visibility("default")))

/* The API version this plugin speaks; 7.2 accepts exactly 1. */
#define DCFG_QEMU_PLUGIN_API 1

/* QEMU's handle for a loaded plugin, passed back on every registration. */
typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells the plugin when installing it; valid during that call only. */
typedef struct qemu_info_t {
	const char *target_name;      /* the guest architecture, e.g. "x86_64" */
	struct {
		int min;              /* oldest API version QEMU still accepts */
		int cur;              /* the version QEMU implements */
	} version;
	bool system_emulation;        /* false under qemu-user */
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;             /* meaningful in system emulation only */
	};
} qemu_info_t;

/* Opaque handles, valid only inside the translation callback that gave them. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Whether an execution callback reads or writes guest registers: we do neither. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
/* A guest system call about to run: its number and first eight arguments. */
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
					      int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
					      uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
					      uint64_t a8);

/* Registration: each callback runs on the thread of the vCPU it names. */
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
/* Asks for cb(vcpu, userdata) each time the block being translated is entered. */
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);

/* Queries on a block during its translation. */
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t index);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

#endif
