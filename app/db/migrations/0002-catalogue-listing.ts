import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * Indexes the listing planner drives from, and where task-guide Spaces are recorded.
 *
 * PostgreSQL sorts NULL first in a DESC index, while listings want models without a date last;
 * the nullable sort columns get "desc nulls last" indexes so a sorted page is an index walk. The
 * per-task indexes gain `rid` so ties come out in the same order as the full listing.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await sql`create index models_license on models (license)`.execute(db);
  await sql`create index models_params on models (params)`.execute(db);

  if (dialect === "postgres") {
    for (const col of ["created_at", "last_modified"]) {
      await sql`create index ${sql.id(`models_${col}_nl`)} on models (${sql.id(col)} desc nulls last, rid)`.execute(db);
    }
    for (const col of ["downloads", "likes", "trending_score", "created_at", "last_modified"]) {
      const nulls = col === "created_at" || col === "last_modified" ? sql` nulls last` : sql``;
      await sql`create index ${sql.id(`models_task_${col}_rid`)} on models (pipeline_tag, ${sql.id(col)} desc${nulls}, rid)`.execute(db);
    }
  }

  // A Space can be a task guide's example (from @huggingface/tasks) as well as a model's demo.
  await sql`create table space_tasks (
    space_id text not null references spaces(id) on delete cascade,
    task text not null,
    description text,
    primary key (space_id, task)
  )`.execute(db);
  await sql`create index space_tasks_task on space_tasks (task)`.execute(db);
}
