CREATE TABLE "feature_dependencies" (
	"child" text NOT NULL,
	"parent" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "feature_dependencies_child_parent_pk" PRIMARY KEY("child","parent")
);
--> statement-breakpoint
CREATE TABLE "feature_environments" (
	"feature_name" text NOT NULL,
	"environment" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "feature_environments_feature_name_environment_pk" PRIMARY KEY("feature_name","environment")
);
--> statement-breakpoint
CREATE TABLE "feature_strategies" (
	"id" text PRIMARY KEY NOT NULL,
	"feature_name" text NOT NULL,
	"environment" text NOT NULL,
	"strategy_name" text NOT NULL,
	"title" text,
	"disabled" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"constraints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"variants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feature_strategy_segments" (
	"strategy_id" text NOT NULL,
	"segment_id" integer NOT NULL,
	CONSTRAINT "feature_strategy_segments_strategy_id_segment_id_pk" PRIMARY KEY("strategy_id","segment_id")
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"project" text,
	"constraints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "segments_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "feature_dependencies" ADD CONSTRAINT "feature_dependencies_child_features_name_fk" FOREIGN KEY ("child") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_dependencies" ADD CONSTRAINT "feature_dependencies_parent_features_name_fk" FOREIGN KEY ("parent") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_environments" ADD CONSTRAINT "feature_environments_feature_name_features_name_fk" FOREIGN KEY ("feature_name") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_environments" ADD CONSTRAINT "feature_environments_environment_environments_name_fk" FOREIGN KEY ("environment") REFERENCES "public"."environments"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_strategies" ADD CONSTRAINT "feature_strategies_feature_name_features_name_fk" FOREIGN KEY ("feature_name") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_strategies" ADD CONSTRAINT "feature_strategies_environment_environments_name_fk" FOREIGN KEY ("environment") REFERENCES "public"."environments"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "feature_strategy_segments" ADD CONSTRAINT "feature_strategy_segments_strategy_id_feature_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."feature_strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_strategy_segments" ADD CONSTRAINT "feature_strategy_segments_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_project_projects_id_fk" FOREIGN KEY ("project") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_dependencies_parent_idx" ON "feature_dependencies" USING btree ("parent");--> statement-breakpoint
CREATE INDEX "feature_environments_env_idx" ON "feature_environments" USING btree ("environment");--> statement-breakpoint
CREATE INDEX "feature_strategies_feature_env_idx" ON "feature_strategies" USING btree ("feature_name","environment");--> statement-breakpoint
CREATE INDEX "feature_strategy_segments_segment_idx" ON "feature_strategy_segments" USING btree ("segment_id");