/**
 * scrypt's least cost (PASSWORD_HASH_COST) for the services tests start: every start hashes its admin's password
 * and the suite signs thousands of users in, each an scrypt of ~40 ms of CPU at the default cost (16,384). Tests
 * about the cost set their own.
 */
export const TEST_PASSWORD_HASH_COST = 1024;
