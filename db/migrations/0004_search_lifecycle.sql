CREATE TABLE "feature_lifecycles" (
	"feature_name" text NOT NULL,
	"stage" text NOT NULL,
	"status" text,
	"status_value" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feature_lifecycles_feature_name_stage_pk" PRIMARY KEY("feature_name","stage")
);
--> statement-breakpoint
ALTER TABLE "features" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "feature_lifecycles" ADD CONSTRAINT "feature_lifecycles_feature_name_features_name_fk" FOREIGN KEY ("feature_name") REFERENCES "public"."features"("name") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "features_created_at_idx" ON "features" USING btree ("created_at","name");--> statement-breakpoint
-- Flags created before lifecycles were kept: initial at creation, pre-live/live from where they are enabled now, archived when archived.
INSERT INTO "feature_lifecycles" ("feature_name", "stage", "created_at") SELECT "name", 'initial', "created_at" FROM "features";--> statement-breakpoint
INSERT INTO "feature_lifecycles" ("feature_name", "stage", "created_at")
  SELECT DISTINCT fe."feature_name", CASE WHEN e."type" = 'production' THEN 'live' ELSE 'pre-live' END, now()
  FROM "feature_environments" fe JOIN "environments" e ON e."name" = fe."environment" WHERE fe."enabled"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "feature_lifecycles" ("feature_name", "stage", "created_at") SELECT "name", 'archived', "archived_at" FROM "features" WHERE "archived_at" IS NOT NULL;--> statement-breakpoint
UPDATE "features" f SET "created_by" = ev."created_by", "created_by_user_id" = ev."created_by_user_id"
  FROM "events" ev WHERE ev."type" = 'feature-created' AND ev."feature_name" = f."name" AND f."created_by" IS NULL;
