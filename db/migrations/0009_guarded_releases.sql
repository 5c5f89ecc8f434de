CREATE TABLE "impact_metric_minutes" (
	"name" text NOT NULL,
	"labels_key" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	"sum" double precision DEFAULT 0 NOT NULL,
	"buckets" jsonb,
	CONSTRAINT "impact_metric_minutes_name_labels_key_minute_pk" PRIMARY KEY("name","labels_key","minute")
);
--> statement-breakpoint
CREATE TABLE "impact_metric_series" (
	"name" text NOT NULL,
	"labels_key" text NOT NULL,
	"type" text NOT NULL,
	"help" text NOT NULL,
	"labels" jsonb NOT NULL,
	"total" double precision DEFAULT 0 NOT NULL,
	"sum" double precision DEFAULT 0 NOT NULL,
	"buckets" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "impact_metric_series_name_labels_key_pk" PRIMARY KEY("name","labels_key")
);
--> statement-breakpoint
CREATE TABLE "release_plan_definitions" (
	"id" text PRIMARY KEY NOT NULL,
	"discriminator" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"feature_name" text,
	"environment" text,
	"template_id" text,
	"active_milestone_id" text,
	"created_by_user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "release_plan_milestone_strategies" (
	"id" text PRIMARY KEY NOT NULL,
	"milestone_id" text NOT NULL,
	"sort_order" integer NOT NULL,
	"title" text,
	"strategy_name" text NOT NULL,
	"parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"constraints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"disabled" boolean
);
--> statement-breakpoint
CREATE TABLE "release_plan_milestones" (
	"id" text PRIMARY KEY NOT NULL,
	"definition_id" text NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	"transition_condition" jsonb,
	"started_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"progression_executed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "release_plan_safeguards" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"action_type" text NOT NULL,
	"trigger_condition" jsonb NOT NULL,
	"impact_metric" jsonb NOT NULL,
	"triggered_at" timestamp with time zone,
	"triggered_value" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feature_strategies" ADD COLUMN "milestone_id" text;--> statement-breakpoint
ALTER TABLE "release_plan_definitions" ADD CONSTRAINT "release_plan_definitions_feature_name_features_name_fk" FOREIGN KEY ("feature_name") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "release_plan_definitions" ADD CONSTRAINT "release_plan_definitions_environment_environments_name_fk" FOREIGN KEY ("environment") REFERENCES "public"."environments"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "release_plan_milestone_strategies" ADD CONSTRAINT "release_plan_milestone_strategies_milestone_id_release_plan_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."release_plan_milestones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_plan_milestones" ADD CONSTRAINT "release_plan_milestones_definition_id_release_plan_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."release_plan_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_plan_safeguards" ADD CONSTRAINT "release_plan_safeguards_plan_id_release_plan_definitions_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."release_plan_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "impact_metric_minutes_minute_idx" ON "impact_metric_minutes" USING btree ("minute");--> statement-breakpoint
CREATE UNIQUE INDEX "release_plan_templates_name_idx" ON "release_plan_definitions" USING btree ("name") WHERE discriminator = 'template';--> statement-breakpoint
CREATE UNIQUE INDEX "release_plans_feature_env_idx" ON "release_plan_definitions" USING btree ("feature_name","environment") WHERE discriminator = 'plan';--> statement-breakpoint
CREATE INDEX "release_plan_milestone_strategies_milestone_idx" ON "release_plan_milestone_strategies" USING btree ("milestone_id");--> statement-breakpoint
CREATE INDEX "release_plan_milestones_definition_idx" ON "release_plan_milestones" USING btree ("definition_id");--> statement-breakpoint
CREATE INDEX "release_plan_safeguards_plan_idx" ON "release_plan_safeguards" USING btree ("plan_id");--> statement-breakpoint
ALTER TABLE "feature_strategies" ADD CONSTRAINT "feature_strategies_milestone_id_release_plan_milestones_id_fk" FOREIGN KEY ("milestone_id") REFERENCES "public"."release_plan_milestones"("id") ON DELETE set null ON UPDATE no action;