import { Module } from "@nestjs/common";
import { NotificationsController } from "./notifications.controller";
import { InboxService } from "./inbox.service";

@Module({
  controllers: [NotificationsController],
  providers: [InboxService],
})
export class AppModule {}
