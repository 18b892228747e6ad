/** Balance alerts (/alerts) (not built yet: answers "coming soon"). */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";
import { comingSoon } from "./menu.js";

const composer = new Composer<BotContext>();
composer.command(["alerts"], comingSoon);

export const alertsModule: FeatureModule = { composer, menu: { alerts: comingSoon } };
