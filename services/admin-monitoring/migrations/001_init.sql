-- The admin schema: nothing yet beyond the outbox and processed-events tables (ensureEventTables).
SELECT 1;
