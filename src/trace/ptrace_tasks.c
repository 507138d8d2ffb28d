// SPDX-License-Identifier: GPL-2.0
/*
 * The ptrace backend's per-task and per-thread-group state: two chained hash tables keyed by tid and tgid.
 * Entries live exactly as long as the task or group does, so memory follows the live tasks, not the run.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ptrace_int.h"
#include "util/xalloc.h"

static uint32_t slot_of(pid_t id, uint32_t cap)
{
	return ((uint32_t)id * 2654435761u) & (cap - 1);
}

/* Doubles the task table: one load factor, so a lookup stays a short chain walk. */
static void tasks_grow(struct pt_state *st)
{
	uint32_t cap = st->tasks_cap ? st->tasks_cap * 2 : 64;
	struct pt_task **tab = xcalloc(cap, sizeof(*tab));

	for (uint32_t i = 0; i < st->tasks_cap; i++) {
		for (struct pt_task *t = st->tasks[i], *next; t; t = next) {
			uint32_t s = slot_of(t->tid, cap);

			next = t->next;
			t->next = tab[s];
			tab[s] = t;
		}
	}
	free(st->tasks);
	st->tasks = tab;
	st->tasks_cap = cap;
}

static void groups_grow(struct pt_state *st)
{
	uint32_t cap = st->groups_cap ? st->groups_cap * 2 : 64;
	struct pt_group **tab = xcalloc(cap, sizeof(*tab));

	for (uint32_t i = 0; i < st->groups_cap; i++) {
		for (struct pt_group *g = st->groups[i], *next; g; g = next) {
			uint32_t s = slot_of(g->tgid, cap);

			next = g->next;
			g->next = tab[s];
			tab[s] = g;
		}
	}
	free(st->groups);
	st->groups = tab;
	st->groups_cap = cap;
}

struct pt_task *pt_task_find(const struct pt_state *st, pid_t tid)
{
	if (!st->tasks_cap)
		return NULL;
	for (struct pt_task *t = st->tasks[slot_of(tid, st->tasks_cap)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void task_link(struct pt_state *st, struct pt_task *t)
{
	uint32_t s = slot_of(t->tid, st->tasks_cap);

	t->next = st->tasks[s];
	st->tasks[s] = t;
}

static void task_unlink(struct pt_state *st, struct pt_task *t)
{
	for (struct pt_task **pp = &st->tasks[slot_of(t->tid, st->tasks_cap)]; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			t->next = NULL;
			return;
		}
	}
}

struct pt_task *pt_task_add(struct pt_state *st, pid_t tid, struct pt_group *g)
{
	struct pt_task *t;

	if (st->ntasks + 1 > st->tasks_cap)
		tasks_grow(st);
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	task_link(st, t);
	st->ntasks++;
	pt_task_set_group(t, g);
	return t;
}

void pt_task_set_group(struct pt_task *t, struct pt_group *g)
{
	t->group = g;
	if (g)
		g->ntasks++;
}

void pt_task_remove(struct pt_state *st, struct pt_task *t)
{
	task_unlink(st, t);
	st->ntasks--;
	if (t->group && t->group->ntasks)
		t->group->ntasks--;
	free(t->path);
	for (int i = 0; i < 6; i++)
		free(t->strs[i]);
	free(t);
}

void pt_task_rekey(struct pt_state *st, struct pt_task *t, pid_t tid)
{
	task_unlink(st, t);
	t->tid = tid;
	task_link(st, t);
}

struct pt_group *pt_group_find(const struct pt_state *st, pid_t tgid)
{
	if (!st->groups_cap)
		return NULL;
	for (struct pt_group *g = st->groups[slot_of(tgid, st->groups_cap)]; g; g = g->next)
		if (g->tgid == tgid)
			return g;
	return NULL;
}

struct pt_group *pt_group_add(struct pt_state *st, pid_t tgid, struct fp_proc *proc)
{
	struct pt_group *g;
	uint32_t s;

	if (st->ngroups + 1 > st->groups_cap)
		groups_grow(st);
	g = xcalloc(1, sizeof(*g));
	g->tgid = tgid;
	g->proc = proc;
	s = slot_of(tgid, st->groups_cap);
	g->next = st->groups[s];
	st->groups[s] = g;
	st->ngroups++;
	return g;
}

void pt_group_remove(struct pt_state *st, struct pt_group *g)
{
	for (struct pt_group **pp = &st->groups[slot_of(g->tgid, st->groups_cap)]; *pp; pp = &(*pp)->next) {
		if (*pp == g) {
			*pp = g->next;
			st->ngroups--;
			pt_reach_group_free(g);
			free(g);
			return;
		}
	}
}

void pt_tasks_each(struct pt_state *st, void (*fn)(struct pt_state *, struct pt_task *))
{
	for (uint32_t i = 0; i < st->tasks_cap; i++) {
		struct pt_task *t = st->tasks[i], *next;

		for (; t; t = next) {
			next = t->next;
			fn(st, t);
		}
	}
}

void pt_tables_release(struct pt_state *st)
{
	for (uint32_t i = 0; i < st->tasks_cap; i++) {
		struct pt_task *t = st->tasks[i], *next;

		for (; t; t = next) {
			next = t->next;
			free(t->path);
			for (int k = 0; k < 6; k++)
				free(t->strs[k]);
			free(t);
		}
	}
	for (uint32_t i = 0; i < st->groups_cap; i++) {
		struct pt_group *g = st->groups[i], *next;

		for (; g; g = next) {
			next = g->next;
			pt_reach_group_free(g);
			free(g);
		}
	}
	free(st->tasks);
	free(st->groups);
	st->tasks = NULL;
	st->groups = NULL;
	st->tasks_cap = st->groups_cap = st->ntasks = st->ngroups = 0;
}
