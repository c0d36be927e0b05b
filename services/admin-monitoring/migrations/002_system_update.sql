-- The system update (spec §4): one row per run. The status outlives the process that runs it (its
-- own restart is the plan's last step) and is shared by every replica; the partial unique index
-- lets only one run be running at a time, whichever replica is asked to start it.
CREATE TABLE system_updates (
  id bigserial PRIMARY KEY,
  is_running boolean NOT NULL,
  current_step text NOT NULL,
  progress integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  -- Set while the plan's last step (this service's own restart) runs: the new process finishes the run.
  restarting_self boolean NOT NULL DEFAULT false,
  error text,
  started_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX system_updates_one_running ON system_updates ((true)) WHERE is_running;
