/** Prices and top-up (/harga, /beli) (not built yet: answers "coming soon"). */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";
import { comingSoon } from "./menu.js";

const composer = new Composer<BotContext>();
composer.command(["harga", "prices", "beli", "topup"], comingSoon);

export const topupModule: FeatureModule = { composer, menu: { prices: comingSoon, topup: comingSoon } };
