CREATE TABLE "request_counts" (
	"bucket" timestamp with time zone NOT NULL,
	"app_name" text NOT NULL,
	"endpoint" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "request_counts_bucket_app_name_endpoint_pk" PRIMARY KEY("bucket","app_name","endpoint")
);
