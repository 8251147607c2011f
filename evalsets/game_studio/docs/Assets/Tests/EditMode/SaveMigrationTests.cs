using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using UnityEngine;
using Fernhollow.Cinderglass.Save;

namespace Fernhollow.Cinderglass.Tests
{
    public class SaveMigrationTests
    {
        // Real saves from every public build, added after the 1.1.0 crash. One file per version.
        private const string FixtureFolder = "Assets/Tests/Fixtures/Saves";

        private static IEnumerable<string> FixtureFiles()
        {
            return Directory.GetFiles(FixtureFolder, "*.cgsave");
        }

        [Test]
        public void Upgrade_V1Save_MovesCoinsToGold()
        {
            var data = new SaveData { Version = 1, LegacyCoins = 350, LegacyItemIndices = new int[0] };
            SaveData upgraded = SaveMigrations.Upgrade(data);
            Assert.AreEqual(3, upgraded.Version);
            Assert.AreEqual(350, upgraded.Gold);
        }

        [Test]
        public void Upgrade_V2SaveWithRemovedLocket_BecomesScrap()
        {
            var data = new SaveData
            {
                Version = 2,
                LegacyItemIndices = new[] { 20, 31 },
                LegacyItemCounts = new[] { 5, 1 },
            };
            SaveData upgraded = SaveMigrations.Upgrade(data);
            Assert.AreEqual("health_tonic", upgraded.Items[0].ItemId);
            Assert.AreEqual("scrap_bundle", upgraded.Items[1].ItemId);
            Assert.AreEqual(1, upgraded.Items[1].Count);
        }

        [TestCaseSource(nameof(FixtureFiles))]
        public void Upgrade_FixtureFromPublicBuild_DoesNotThrow(string path)
        {
            var envelope = JsonUtility.FromJson<FixtureEnvelope>(File.ReadAllText(path));
            var data = JsonUtility.FromJson<SaveData>(envelope.Payload);
            Assert.DoesNotThrow(() => SaveMigrations.Upgrade(data));
        }

        private class FixtureEnvelope
        {
            public string Payload = "";
        }
    }
}
