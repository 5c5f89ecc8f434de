CREATE TABLE "client_applications" (
	"app_name" text PRIMARY KEY NOT NULL,
	"strategies" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_instances" (
	"app_name" text NOT NULL,
	"instance_id" text NOT NULL,
	"environment" text NOT NULL,
	"sdk_version" text,
	"client_ip" text,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_instances_app_name_instance_id_environment_pk" PRIMARY KEY("app_name","instance_id","environment")
);
--> statement-breakpoint
CREATE TABLE "client_metrics_hourly" (
	"feature_name" text NOT NULL,
	"app_name" text NOT NULL,
	"environment" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"yes" integer DEFAULT 0 NOT NULL,
	"no" integer DEFAULT 0 NOT NULL,
	"variants" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "client_metrics_hourly_feature_name_app_name_environment_hour_pk" PRIMARY KEY("feature_name","app_name","environment","hour")
);
--> statement-breakpoint
ALTER TABLE "feature_environments" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "features" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_instances" ADD CONSTRAINT "client_instances_app_name_client_applications_app_name_fk" FOREIGN KEY ("app_name") REFERENCES "public"."client_applications"("app_name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_metrics_hourly_hour_idx" ON "client_metrics_hourly" USING btree ("hour");