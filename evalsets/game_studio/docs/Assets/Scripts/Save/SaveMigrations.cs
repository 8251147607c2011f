using System.Collections.Generic;
using UnityEngine;
using Fernhollow.Cinderglass.Inventory;

namespace Fernhollow.Cinderglass.Save
{
    /// <summary>
    /// Upgrades save data written by older builds, one version at a time.
    /// v1: 0.8.x closed beta. v2: 0.9.0 to 1.0.x. v3: 1.1.0 onwards.
    /// </summary>
    public static class SaveMigrations
    {
        // Item indices used by v1/v2 saves, mapped to the string ids used since v3.
        // Index 31 (tarnished_locket) was taken out of the game in 1.1.0 and is deliberately
        // missing here; see postmortems/2025-04-29_save_migration_crash.md.
        public static readonly Dictionary<int, string> LegacyItemIds = new Dictionary<int, string>
        {
            { 0, "ember_shortsword" },
            { 1, "glass_pike" },
            { 2, "cinder_bow" },
            { 10, "oak_buckler" },
            { 11, "tower_pane" },
            { 20, "health_tonic" },
            { 21, "ward_sigil" },
            { 30, "ember_charm" },
            { 40, "vault_key" },
        };

        /// <summary>What an item index we no longer know becomes, so that loading never fails.</summary>
        public const string UnknownItemReplacement = "scrap_bundle";

        public static SaveData Upgrade(SaveData data)
        {
            if (data.Version == 1) data = MigrateV1ToV2(data);
            if (data.Version == 2) data = MigrateV2ToV3(data);
            return data;
        }

        // 0.9.0: "coins" renamed to "gold"; play time tracked from here on.
        private static SaveData MigrateV1ToV2(SaveData data)
        {
            data.Gold = data.LegacyCoins;
            data.LegacyCoins = 0;
            data.PlayTimeSeconds = 0f;
            data.Version = 2;
            return data;
        }

        // 1.1.0: inventory stored as (item id, count) pairs instead of parallel index/count arrays.
        // 1.1.1: an index missing from LegacyItemIds becomes scrap instead of throwing
        // KeyNotFoundException, which took down the loading screen in 1.1.0.
        private static SaveData MigrateV2ToV3(SaveData data)
        {
            data.Items = new List<ItemStack>();
            int[] indices = data.LegacyItemIndices ?? new int[0];
            for (int i = 0; i < indices.Length; i++)
            {
                if (!LegacyItemIds.TryGetValue(indices[i], out string id))
                {
                    Debug.LogWarning($"Save v2: unknown item index {indices[i]} replaced by {UnknownItemReplacement}");
                    id = UnknownItemReplacement;
                }
                data.Items.Add(new ItemStack(id, data.LegacyItemCounts[i]));
            }
            data.LegacyItemIndices = null;
            data.LegacyItemCounts = null;
            data.Version = 3;
            return data;
        }
    }
}
