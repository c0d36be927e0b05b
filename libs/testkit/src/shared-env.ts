/** Environment variable that carries the run's shared PostgreSQL (server URL) to the test workers. */
export const SHARED_PG_ENV = 'WB_TEST_PG_URL';
