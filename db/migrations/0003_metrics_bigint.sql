ALTER TABLE "client_metrics_hourly" ALTER COLUMN "yes" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "client_metrics_hourly" ALTER COLUMN "no" SET DATA TYPE bigint;