CREATE TABLE "change_request_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"change_request_id" integer NOT NULL,
	"feature" text NOT NULL,
	"action" text NOT NULL,
	"payload" jsonb NOT NULL,
	"strategy_snapshot" jsonb,
	"created_by_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_request_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"change_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_request_reviews" (
	"change_request_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_request_reviews_change_request_id_user_id_kind_pk" PRIMARY KEY("change_request_id","user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "change_request_settings" (
	"project" text NOT NULL,
	"environment" text NOT NULL,
	"enabled" boolean NOT NULL,
	"required_approvals" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "change_request_settings_project_environment_pk" PRIMARY KEY("project","environment")
);
--> statement-breakpoint
CREATE TABLE "change_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"project" text NOT NULL,
	"environment" text NOT NULL,
	"state" text NOT NULL,
	"title" text,
	"min_approvals" integer NOT NULL,
	"created_by_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scheduled_at" timestamp with time zone,
	"scheduled_by_user_id" integer,
	"schedule_status" text,
	"schedule_reason" text
);
--> statement-breakpoint
ALTER TABLE "change_request_changes" ADD CONSTRAINT "change_request_changes_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_comments" ADD CONSTRAINT "change_request_comments_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_settings" ADD CONSTRAINT "change_request_settings_project_projects_id_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_request_settings" ADD CONSTRAINT "change_request_settings_environment_environments_name_fk" FOREIGN KEY ("environment") REFERENCES "public"."environments"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_project_projects_id_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_environment_environments_name_fk" FOREIGN KEY ("environment") REFERENCES "public"."environments"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "change_request_changes_request_idx" ON "change_request_changes" USING btree ("change_request_id");--> statement-breakpoint
CREATE INDEX "change_request_comments_request_idx" ON "change_request_comments" USING btree ("change_request_id");--> statement-breakpoint
CREATE INDEX "change_requests_project_idx" ON "change_requests" USING btree ("project","id");--> statement-breakpoint
CREATE INDEX "change_requests_scheduled_idx" ON "change_requests" USING btree ("state","scheduled_at");