CREATE TABLE "addons" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"enabled" boolean NOT NULL,
	"parameters" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"projects" jsonb NOT NULL,
	"environments" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"addon_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"delivery_id" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"lease_owner" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"addon_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"state" text NOT NULL,
	"state_details" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_addon_id_addons_id_fk" FOREIGN KEY ("addon_id") REFERENCES "public"."addons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_addon_id_addons_id_fk" FOREIGN KEY ("addon_id") REFERENCES "public"."addons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_addon_idx" ON "integration_deliveries" USING btree ("addon_id","id");--> statement-breakpoint
CREATE INDEX "integration_events_addon_idx" ON "integration_events" USING btree ("addon_id","id");